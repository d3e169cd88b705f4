// A script: tool calls and exogenous events in order, run in one fresh world.
// `skillbridge call --script FILE` runs it; the truth audit writes one for each
// violation it finds, so anyone can reproduce it. An event with `during` is
// injected that many simulated seconds into the next call (an e-stop or a person
// moving something while a skill runs).
import type { Robot } from '../../robot/robot';
import type { SimControl } from '../../robot/sim/control';
import type { Tool, ToolContext, ToolResult } from '../../agents/tools/tool';
// The schemas live apart: only `call --script` parses a script, and building them cost every call.
import type { CallStep, ScriptEvent, ScriptStep } from './script-schema';

export type { CallStep, EventStep, ScriptEvent, ScriptStep } from './script-schema';

export const isCall = (s: ScriptStep): s is CallStep => 'tool' in s;

/**
 * Arms an event for the next call: when the world's clock passes `seconds`
 * after now, the event is injected (once). Returns a disarm function.
 */
export function armDuring(control: SimControl, event: ScriptEvent, seconds: number): () => void {
  const world = control.world;
  const at = world.time + seconds;
  let done = false;
  const hook = (): void => {
    if (done || world.time < at) return;
    done = true;
    try {
      control.inject(event);
    } catch {
      // An event the world refuses now (the object is held, gone) is simply not applied.
    }
  };
  world.processHooks.push(hook);
  return () => {
    done = true;
    const i = world.processHooks.indexOf(hook);
    if (i >= 0) world.processHooks.splice(i, 1);
  };
}

/**
 * Between calls the world runs on until what still moves comes to rest, at most this
 * long (seconds), as after a person's move: no call starts, and the audit judges none,
 * with something in flight.
 */
export const BETWEEN_CALLS = 2;

function comeToRest(control: SimControl | undefined): number | undefined {
  const w = control?.world;
  if (!w) return undefined;
  const ended = w.time;
  for (let i = 0; i < Math.ceil(BETWEEN_CALLS / w.dt) && !w.objectsSettled(); i++) w.step();
  return ended;
}

export interface StepRun {
  step: ScriptStep;
  /** For calls: the tool's result, or the error it threw. */
  result?: ToolResult;
  thrown?: string;
  /** For calls in a simulated world: its clock when the call returned (before the world came to rest). */
  ended?: number;
}

/**
 * Runs steps one at a time in one world, as a host would: calls through the
 * tools (with one context, so tools that remember keep their memory), events
 * through SimControl (which validates them). `toolFor` finds a tool when its
 * step comes (some tool sets generate tools from what the robot sees).
 */
export class ScriptRunner {
  private readonly ctx: ToolContext;
  private armed: Array<() => void> = [];
  /** Called as a call returns, before the world comes to rest (the audit reads the world there). */
  onEnded?: () => void;

  constructor(
    readonly robot: Robot,
    /** The simulator's control, for event steps (none: events are refused). */
    readonly control: SimControl | undefined,
    private readonly toolFor: (name: string) => Promise<Tool | undefined>,
  ) {
    this.ctx = { robot, signal: new AbortController().signal, state: new Map() };
  }

  /** The world's clock when it last came to rest (or gave up waiting): a call starts from there. */
  private restedAt: number | undefined;

  /** Lets what still moves come to rest (a person's move can leave something sliding): no call starts with something in flight. */
  rest(): void {
    comeToRest(this.control);
    this.restedAt = this.control?.world.time;
  }

  async step(step: ScriptStep): Promise<StepRun> {
    if (isCall(step)) {
      // Rested just now (the audit read the world there): the call starts at once. Waiting
      // again for what never settles (an egg rocking on the floor) would start it seconds
      // after the readings it is judged against.
      if (this.restedAt === undefined || this.control?.world.time !== this.restedAt) this.rest();
      const tool = await this.toolFor(step.tool);
      let run: StepRun;
      if (!tool) run = { step, result: { ok: false, content: `no tool "${step.tool}" is offered now` } };
      else {
        try {
          run = { step, result: await tool.call(step.args, this.ctx) };
        } catch (e) {
          run = { step, thrown: (e as Error).stack ?? String(e) };
        }
      }
      this.disarm();
      this.onEnded?.();
      const ended = comeToRest(this.control);
      return ended === undefined ? run : { ...run, ended };
    }
    if (!this.control) throw new Error('event steps need a simulated world');
    if (step.during !== undefined) this.armed.push(armDuring(this.control, step.event, step.during));
    else {
      try {
        this.control.inject(step.event);
      } catch {
        // An event the world refuses now (the object is held, gone) is simply not applied.
      }
    }
    return { step };
  }

  disarm(): void {
    for (const d of this.armed) d();
    this.armed = [];
  }
}
