// The conversation service: one call opens a conversation from a robot (an open
// one, or a source to open: a scene today, an HTTP or rosbridge robot next), a
// workflow, a tool set, a model spec, approval, limits and trace sinks. Every
// host uses it — the CLI's run, the app's worker, the benchmarks, and next the
// evaluation runner, the MCP server and the robot API — so they cannot drift.
import type { Robot } from '../robot/robot';
import type { SkillPredictor } from '../robot/skills';
import { RobotSourceError } from '../robot/source';
import { type RobotForm, type SimControl, openRobot } from '../robot/sources';
import { ModelError, type Model } from './models/model';
import { type ModelFactory, type SecretLookup, createModel, findModelFactory } from './models/spec';
import { Conversation, type ConversationOptions } from './runtime/conversation';
import type { Workflow } from './runtime/workflow';
import { UnknownToolSetError } from './tools/sets';
import type { Tool } from './tools/tool';
import { UnknownWorkflowError, createWorkflow } from './workflows';
import { withExtraTools } from './workflows/kit/extra-tools';

/** What a conversation is opened from: the Conversation's options, with ids and specs where it takes objects. */
export interface ConversationSpec extends Omit<ConversationOptions, 'robot' | 'workflow' | 'model' | 'openRobot' | 'id'> {
  /** An open robot (the app's world), or the connection form of a robot to open. */
  robot: Robot | RobotForm;
  /** The simulator's handle of an open simulated robot given as `robot` (the host opened it and closes it). */
  sim?: SimControl;
  /** A workflow id (see `skillbridge workflows`), or a workflow object (tests, benchmarks). */
  workflow: string | Workflow;
  /** The tool set for workflows that take one (flat, rtw/basic); default the scene's. */
  toolSet?: string;
  /** More tools every flow of the workflow offers (an external MCP server's: agents/tools/mcp). */
  extraTools?: readonly Tool[];
  /** A model spec ("ollama:qwen3:8b", "scripted:FILE"…), or a model object. */
  model: string | Model;
  env?: Readonly<Record<string, string | undefined>>;
  secrets?: SecretLookup;
  /**
   * Kinds of model a host adds by name (evaluation's `oracle` and `floor:…`); they
   * are built after the robot opens, from what the host and the robot offer.
   */
  modelFactories?: readonly ModelFactory<ModelHostContext>[];
}

/** What a model factory may use: the robot, and the simulator's handle when the robot is simulated. */
export interface ModelHostContext {
  robot: Robot;
  sim: SimControl | undefined;
  scene: string | undefined;
  seed: number | undefined;
}

export interface OpenConversation {
  conversation: Conversation;
  robot: Robot;
  /** The simulator's handle, when the service opened a simulated robot. */
  sim: SimControl | undefined;
  /** Closes the robot if the service opened it. */
  close(): Promise<void>;
}

/** A setting that cannot be used; `field` names it for a one-line message. */
export class ConversationSpecError extends Error {
  override name = 'ConversationSpecError';
  constructor(
    readonly field: 'robot' | 'workflow' | 'toolSet' | 'model',
    message: string,
  ) {
    super(message);
  }
}

function isRobot(r: Robot | RobotForm): r is Robot {
  return typeof (r as Robot).has === 'function';
}

export async function openConversation(spec: ConversationSpec): Promise<OpenConversation> {
  // The model first: a bad spec should not cost a world build. A host's own kind
  // of model is only checked here and built once the robot is open.
  const factory = typeof spec.model === 'string' ? findModelFactory(spec.model, spec.modelFactories) : undefined;
  let model: Model | undefined;
  try {
    if (factory) factory.factory.validate(factory.rest);
    else
      model =
        typeof spec.model === 'string'
          ? createModel(spec.model, {
              ...(spec.env ? { env: spec.env } : {}),
              ...(spec.secrets ? { secrets: spec.secrets } : {}),
              ...(spec.modelFactories ? { factories: spec.modelFactories } : {}),
            })
          : spec.model;
  } catch (e) {
    if (e instanceof ModelError) throw new ConversationSpecError('model', e.message);
    throw e;
  }
  let robot: Robot;
  let sim: SimControl | undefined;
  let predictor: SkillPredictor | undefined;
  let close = async (): Promise<void> => undefined;
  if (isRobot(spec.robot)) {
    robot = spec.robot;
    sim = spec.sim;
  } else {
    try {
      const opened = await openRobot(spec.robot);
      robot = opened.robot;
      sim = opened.sim;
      // Shadow mode: the simulator beside a real robot predicts each action for the safety chain.
      predictor = 'shadow' in opened ? opened.shadow : undefined;
      close = () => opened.close();
    } catch (e) {
      if (e instanceof RobotSourceError) throw new ConversationSpecError('robot', e.message);
      throw e;
    }
  }
  if (factory) {
    try {
      model = factory.factory.create(factory.rest, { robot, sim, scene: spec.scene, seed: spec.seed });
    } catch (e) {
      await close();
      if (e instanceof ModelError) throw new ConversationSpecError('model', e.message);
      throw e;
    }
  }
  let workflow: Workflow;
  try {
    workflow =
      typeof spec.workflow === 'string'
        ? await createWorkflow(spec.workflow, robot, spec.toolSet ? { toolSet: spec.toolSet } : {})
        : spec.workflow;
  } catch (e) {
    await close();
    if (e instanceof UnknownWorkflowError) throw new ConversationSpecError('workflow', e.message);
    if (e instanceof UnknownToolSetError) throw new ConversationSpecError('toolSet', e.message);
    throw e;
  }
  if (spec.extraTools?.length) workflow = withExtraTools(workflow, spec.extraTools);
  const {
    robot: _r,
    sim: _sim,
    workflow: _w,
    toolSet: _t,
    extraTools: _x,
    model: _m,
    env: _e,
    secrets: _s,
    modelFactories: _f,
    ...options
  } = spec;
  const safety = predictor ? { ...options.safety, predictor } : options.safety;
  const conversation = new Conversation({ ...options, model: model!, robot, workflow, ...(safety ? { safety } : {}) });
  return { conversation, robot, sim, close };
}
