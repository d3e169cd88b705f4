// The tools of the Robotic Tool Workflows paper (000 §II.C), one group per
// demonstrator:
// - TORO (basic): static information about the robot and parameterised motions
//   whose ranges are validated at run time (TakeAStep's bounded x, y, yaw).
// - MAYA (hierarchical): information tools that hold regardless of the world, and
//   task tools generated from the world's current state (open_<x> only while a
//   closed x is seen, pick_<x> per visible pickable x).
// - AIMM (world model): guarded query templates over the world-model tree, the
//   paper's Cypher templates applied to our scene graph; parameters are checked
//   against the graph's schema (its node types and attributes), never free-form.
import { z } from 'zod';
import { didYouMean } from '../../../base/did-you-mean';
import type { Detection, Robot, WorldModelNode } from '../../../robot/robot';
import { fail, guarded, list, ok, outcomeResult, resolveName } from '../common';
import { type BasePose, outcomeInBaseFrame, toBase } from '../frames';
import { type Tool, defineTool } from '../tool';

// ---------------------------------------------------------------- TORO (basic)

/** TakeAStep's ranges (paper 000 §II.C.1): x ±0.15 m, y ±0.1 m, yaw ±45°. */
export const STEP_LIMITS = { forward: 0.15, left: 0.1, turnDeg: 45 } as const;
export const NUDGE_LIMIT = 0.1;

function describeRobot(robot: Robot): string {
  const i = robot.info;
  const lines = [`I am ${i.name} (${i.kind.replace('_', ' ')}). ${i.description}`];
  if (i.arm)
    lines.push(
      `Arm: reaches ${i.arm.reachM.toFixed(2)} m, lifts up to ${i.arm.payloadKg} kg, gripper opens ${Math.round(i.arm.gripperOpeningM * 100)} cm; postures: ${i.arm.postures.join(', ')}.`,
    );
  if (i.base) lines.push(`Base: ${i.base.footprintM[0]} × ${i.base.footprintM[1]} m footprint, up to ${i.base.maxSpeedMps} m/s.`);
  if (i.places.length) lines.push(`Places I know: ${i.places.map((p) => p.id).join(', ')}.`);
  lines.push(`Capabilities: ${i.capabilities.join(', ')}.`);
  return lines.join('\n');
}

const describeYourself = defineTool({
  name: 'describe_yourself',
  description: 'Static information about this robot: what it is, its arm, base, sensors and the places it knows.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'a short description of the robot',
    whenToUse: 'who are you? what are you? what can your arm lift?',
    dimension: 'cognition',
    tags: ['static', 'self'],
  },
  execute: async (_a, { robot }) => ok(describeRobot(robot), robot.info),
});

const takeAStep = defineTool({
  name: 'take_a_step',
  description: `Moves the base by a small step in its own frame. forward in [-${STEP_LIMITS.forward}, ${STEP_LIMITS.forward}] m, left in [-${STEP_LIMITS.left}, ${STEP_LIMITS.left}] m, turn in [-${STEP_LIMITS.turnDeg}, ${STEP_LIMITS.turnDeg}] degrees (positive turns left).`,
  category: 'action',
  params: z.strictObject({
    forward: z.number().min(-STEP_LIMITS.forward).max(STEP_LIMITS.forward).default(0).describe('metres, negative steps back'),
    left: z.number().min(-STEP_LIMITS.left).max(STEP_LIMITS.left).default(0).describe('metres, negative steps right'),
    turn: z.number().min(-STEP_LIMITS.turnDeg).max(STEP_LIMITS.turnDeg).default(0).describe('degrees, positive turns left'),
  }),
  card: {
    outputs: 'success, or why the step was refused',
    whenToUse: 'a small adjustment of where the robot stands',
    constraints: 'bounded step; larger moves need several steps',
    dimension: 'execution',
    requires: ['base'],
    tags: ['step', 'move', 'base'],
  },
  execute: async ({ forward, left, turn }, { robot, signal }) => outcomeResult(await robot.base!.step(forward, left, turn, signal)),
});

const nudgeArm = defineTool({
  name: 'nudge_arm',
  description: `Moves the gripper a little in the robot's frame: forward, left and up, each in [-${NUDGE_LIMIT}, ${NUDGE_LIMIT}] m.`,
  category: 'action',
  params: z.strictObject({
    forward: z.number().min(-NUDGE_LIMIT).max(NUDGE_LIMIT).default(0).describe('metres'),
    left: z.number().min(-NUDGE_LIMIT).max(NUDGE_LIMIT).default(0).describe('metres'),
    up: z.number().min(-NUDGE_LIMIT).max(NUDGE_LIMIT).default(0).describe('metres'),
  }),
  card: {
    outputs: 'success, or why the arm could not move there',
    whenToUse: 'small corrections of the gripper position',
    constraints: 'bounded move',
    dimension: 'execution',
    requires: ['arm'],
    tags: ['arm', 'nudge', 'move'],
  },
  execute: async ({ forward, left, up }, { robot, signal }) =>
    outcomeResult(outcomeInBaseFrame(await robot.arm!.nudge(forward, left, up, signal), await robot.perception.basePose())),
});

function movePosture(postures: readonly string[]): Tool {
  const names = postures.length ? (postures as [string, ...string[]]) : (['home'] as [string]);
  return defineTool({
    name: 'move_arm_to_posture',
    description: `Moves the arm to a named posture: ${names.join(', ')}.`,
    category: 'action',
    params: z.strictObject({ posture: z.enum(names) }),
    card: {
      outputs: 'success or failure',
      whenToUse: 'tuck the arm, or take a pre-planned pose',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['posture', 'arm'],
    },
    execute: async ({ posture }, { robot, signal }) => outcomeResult(await robot.arm!.moveToPosture(posture, signal)),
  });
}

const wave = defineTool({
  name: 'wave',
  description: 'Waves the gripper side to side: a pre-planned greeting gesture, the same every time.',
  category: 'action',
  params: z.strictObject({ times: z.int().min(1).max(3).default(2).describe('how many waves') }),
  card: {
    outputs: 'success, or where the motion stopped',
    whenToUse: 'greeting someone, or saying goodbye',
    dimension: 'execution',
    requires: ['arm'],
    tags: ['gesture', 'greet', 'demo'],
  },
  execute: async ({ times }, { robot, signal }) => {
    const arm = robot.arm!;
    const up = await arm.nudge(0, 0, 0.08, signal);
    if (!up.ok) return outcomeResult(up);
    for (let i = 0; i < times; i++) {
      for (const left of [0.06, -0.12, 0.06]) {
        const r = await arm.nudge(0, left, 0, signal);
        if (!r.ok) return outcomeResult(r);
      }
    }
    const down = await arm.nudge(0, 0, -0.08, signal);
    return down.ok ? ok(`Success: waved ${times} time${times > 1 ? 's' : ''}.`) : outcomeResult(down);
  },
});

/** TORO's flat list for any robot: what applies to its capabilities. */
export function rtwBasicTools(robot: Robot): Tool[] {
  const tools: Tool[] = [describeYourself];
  if (robot.has('base')) tools.push(takeAStep);
  if (robot.has('arm')) tools.push(nudgeArm, movePosture(robot.info.arm?.postures ?? []), wave);
  return tools;
}

// ---------------------------------------------------------- MAYA (hierarchical)

interface TaskSpec {
  name: string;
  description: string;
  run: (robot: Robot, signal: AbortSignal) => ReturnType<NonNullable<Robot['arm']>['pick']>;
}

async function props(robot: Robot, id: string): Promise<Record<string, boolean>> {
  const p = (await robot.perception.objectProperties(id))['properties'];
  return (p && typeof p === 'object' ? p : {}) as Record<string, boolean>;
}

/** Why a visible object offers no task right now (or undefined when it offers one). */
async function noTaskReason(robot: Robot, d: Detection, held: string | undefined): Promise<string | undefined> {
  const p = await props(robot, d.id);
  const s = await robot.perception.objectState(d.id);
  if (p['openable'] || p['toggleable']) return undefined;
  if (p['pickable']) {
    if (held) return `the hand already holds ${held}`;
    const within = await robot.perception.related('inside', d.id);
    if (within.length) return `it has ${within.join(', ')} inside`;
    return undefined;
  }
  if (p['sliceable'] && !s['sliced'] && held && !/knife/.test(held)) return 'slicing needs a knife in the hand';
  return 'it is not something the robot can pick, open or switch';
}

/** Task skills generated from what the robot sees now (MAYA's skill inference). */
export async function mayaTaskSpecs(robot: Robot): Promise<TaskSpec[]> {
  const specs: TaskSpec[] = [];
  const arm = robot.arm;
  const held = await robot.perception.holding();
  const seen = await robot.perception.detect();
  if (arm) {
    for (const d of seen) {
      const p = await props(robot, d.id);
      const s = await robot.perception.objectState(d.id);
      if (p['openable'] && s['open'] === false)
        specs.push({ name: `open_${d.id}`, description: `Open ${d.name} (${d.id}).`, run: (_r, sig) => arm.setOpen(d.id, true, sig) });
      if (p['openable'] && s['open'] === true)
        specs.push({ name: `close_${d.id}`, description: `Close ${d.name} (${d.id}).`, run: (_r, sig) => arm.setOpen(d.id, false, sig) });
      if (p['toggleable'] && s['on'] === false)
        specs.push({
          name: `switch_on_${d.id}`,
          description: `Switch on ${d.name} (${d.id}).`,
          run: (_r, sig) => arm.setSwitch(d.id, true, sig),
        });
      if (p['toggleable'] && s['on'] === true)
        specs.push({
          name: `switch_off_${d.id}`,
          description: `Switch off ${d.name} (${d.id}).`,
          run: (_r, sig) => arm.setSwitch(d.id, false, sig),
        });
      if (p['sliceable'] && s['sliced'] === false && held && /knife/.test(held))
        specs.push({
          name: `slice_${d.id}`,
          description: `Slice ${d.name} (${d.id}) with the knife in the hand.`,
          run: (_r, sig) => arm.slice(d.id, sig),
        });
      if (p['pickable'] && !held && !(await noTaskReason(robot, d, held)))
        specs.push({ name: `pick_${d.id}`, description: `Pick up ${d.name} (${d.id}).`, run: (_r, sig) => arm.pick(d.id, sig) });
    }
    if (held) {
      for (const t of seen) {
        if (t.id === held) continue;
        const receptacle = Boolean((await props(robot, t.id))['receptacle']);
        if (!receptacle && (await robot.perception.objectProperties(t.id))['fixed'] !== true) continue;
        const rel = receptacle ? 'in' : 'on';
        specs.push({
          name: `put_${held}_${rel}_${t.id}`,
          description: `Put ${held} ${rel === 'in' ? 'into' : 'on'} ${t.name} (${t.id}).`,
          run: (_r, sig) => arm.place({ kind: 'object', id: t.id, relation: rel }, sig),
        });
      }
      if (robot.people) {
        for (const person of await robot.people.around())
          specs.push({
            name: `hand_${held}_to_${person}`,
            description: `Hand ${held} to ${person}.`,
            run: (_r, sig) => arm.handover(person, sig),
          });
      }
    }
  }
  if (robot.base) {
    for (const place of robot.info.places)
      specs.push({
        name: `go_to_${place.id}`,
        description: `Drive to ${place.title ?? place.id}.`,
        run: (r, sig) => r.base!.navigate(place.id, sig),
      });
  }
  // Tool names are limited to 64 characters of [a-zA-Z0-9_-].
  return specs.filter((s) => /^[a-zA-Z0-9_-]{1,64}$/.test(s.name));
}

/** The task tools for this moment; regenerate after every action (they may vanish). */
export async function mayaTaskTools(robot: Robot): Promise<Tool[]> {
  return (await mayaTaskSpecs(robot)).map((t) =>
    defineTool({
      name: t.name,
      description: `${t.description} Available because of what the robot sees now.`,
      category: 'action',
      params: z.strictObject({}),
      card: {
        outputs: 'success or failure with a reason',
        whenToUse: t.description,
        constraints: 'generated from the current world state; one per iteration',
        dimension: 'execution',
        tags: ['task', 'dynamic'],
      },
      execute: async (_a, { robot: r, signal }) => outcomeResult(await t.run(r, signal)),
    }),
  );
}

const explainSafetyFeatures = defineTool({
  name: 'explain_safety_features',
  description: "Explains the robot's safety features and limits.",
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'the safety features in words',
    whenToUse: 'is it safe? what happens if…?',
    dimension: 'cognition',
    tags: ['safety', 'static'],
  },
  execute: async (_a, { robot }) => {
    const i = robot.info;
    const lines = [
      'An emergency stop halts every motion at once; the robot waits until it is released.',
      "Every physical action can be stopped mid-motion, and actions can be set to need a person's approval first.",
      'Tasks are offered only when the robot sees what they act on, and one task runs at a time.',
    ];
    if (i.arm)
      lines.push(
        `The arm lifts at most ${i.arm.payloadKg} kg and reaches ${i.arm.reachM.toFixed(2)} m; heavier or farther things are refused, not attempted blindly.`,
      );
    if (i.base && !i.base.tucksArmItself) lines.push('The base refuses to drive while the arm sticks out of its footprint.');
    if (robot.has('battery'))
      lines.push(`The battery reports low below ${i.batteryThresholds.low}% and critical below ${i.batteryThresholds.critical}%.`);
    return ok(lines.join('\n'));
  },
});

const listAvailableTasks = defineTool({
  name: 'list_available_tasks',
  description: 'Lists the tasks the robot can do right now, given what it sees and holds.',
  category: 'information',
  params: z.strictObject({}),
  card: { outputs: 'task names with descriptions', whenToUse: 'what can you do now?', dimension: 'cognition', tags: ['tasks', 'dynamic'] },
  execute: async (_a, { robot }) => {
    const specs = await mayaTaskSpecs(robot);
    return ok(
      specs.length
        ? `Tasks available now:\n${specs.map((s) => `- ${s.name}: ${s.description}`).join('\n')}`
        : 'No tasks are available right now. Ask why_no_objects_or_tasks for the reasons.',
      specs.map((s) => s.name),
    );
  },
});

const whyNoObjectsOrTasks = defineTool({
  name: 'why_no_objects_or_tasks',
  description: 'Troubleshooting: explains why the robot sees no objects, or why an object it sees offers no task.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'reasons, object by object',
    whenToUse: "why can't you do X? why don't you see Y?",
    dimension: 'reasoning',
    tags: ['troubleshooting', 'explain'],
  },
  execute: async (_a, { robot }) => {
    const seen = await robot.perception.detect();
    const held = await robot.perception.holding();
    const lines: string[] = [];
    if (!robot.arm) lines.push('This robot has no arm, so it offers no manipulation tasks.');
    if (!seen.length) {
      const at = robot.info.places.length ? ' Drive to a place that serves a table or counter, or look again.' : '';
      lines.push(`The camera sees no objects from here: nothing is in view, in range and unoccluded.${at}`);
    }
    if (held) lines.push(`The hand holds ${held}: picking anything else needs it put down first.`);
    for (const d of seen) {
      const why = await noTaskReason(robot, d, held);
      if (why) lines.push(`${d.id}: no task, because ${why}.`);
    }
    const battery = robot.has('battery') ? await robot.battery() : undefined;
    if (battery && (battery.level === 'critical' || battery.level === 'empty'))
      lines.push(`The battery is ${battery.level} (${battery.percent}%).`);
    if (!lines.length) lines.push(`Every object in view offers a task: ${list((await mayaTaskSpecs(robot)).map((s) => s.name))}.`);
    return ok(lines.join('\n'));
  },
});

const whatDoYouSee = defineTool({
  name: 'what_do_you_see',
  description: 'Lists the objects the robot sees now, with their states.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'objects in view and their states',
    whenToUse: 'what is in front of you?',
    dimension: 'perception',
    requires: ['perception'],
    tags: ['perception', 'dynamic'],
  },
  execute: async (_a, { robot }) => {
    const seen = await robot.perception.detect();
    if (!seen.length) return ok('I see no objects from here.');
    const lines: string[] = [];
    for (const d of seen) {
      const st = Object.entries(await robot.perception.objectState(d.id)).map(([k, v]) => (v ? k : `not ${k}`));
      lines.push(`- ${d.id} (${d.name}), ${d.distanceM.toFixed(2)} m away${st.length ? `, ${st.join(', ')}` : ''}`);
    }
    return ok(`I see:\n${lines.join('\n')}`, seen);
  },
});

/** MAYA's information category (independent of the world's state, or reporting it). */
export function mayaInformationTools(robot: Robot): Tool[] {
  const tools = [describeYourself, explainSafetyFeatures, listAvailableTasks, whyNoObjectsOrTasks];
  if (robot.has('perception')) tools.push(whatDoYouSee);
  return tools;
}

// ---------------------------------------------------------- AIMM (world model)

/** The world model's schema: node types and the attributes each carries. */
export interface WorldModelSchema {
  types: Map<string, Set<string>>;
}

const NODE_FIELDS = ['id', 'name', 'type', 'category', 'parent', 'relation', 'position', 'source'] as const;

export function worldModelSchema(nodes: readonly WorldModelNode[]): WorldModelSchema {
  const types = new Map<string, Set<string>>();
  for (const n of nodes) {
    const attrs = types.get(n.type) ?? new Set<string>(NODE_FIELDS);
    for (const k of Object.keys(n.attributes)) attrs.add(k);
    types.set(n.type, attrs);
  }
  return { types };
}

function field(n: WorldModelNode, key: string, base?: BasePose): unknown {
  // Positions leave in the robot's base frame (REP 103), like every tool's.
  if (key === 'position' && base) return n.position ? toBase(n.position, base) : undefined;
  if ((NODE_FIELDS as readonly string[]).includes(key)) return n[key as (typeof NODE_FIELDS)[number]];
  return n.attributes[key];
}

function show(v: unknown): string {
  return v === undefined ? 'unknown' : typeof v === 'string' ? v : JSON.stringify(v);
}

function checkType(schema: WorldModelSchema, type: string): string | undefined {
  if (schema.types.has(type)) return undefined;
  return `node_type "${type}" is not in the world model's schema.${didYouMean(type, schema.types.keys())} Node types: ${[...schema.types.keys()].sort().join(', ')}`;
}

function checkAttr(schema: WorldModelSchema, type: string, attr: string, role: string): string | undefined {
  const attrs = schema.types.get(type);
  if (!attrs || attrs.has(attr)) return undefined;
  return `${role} "${attr}" is not an attribute of ${type} nodes.${didYouMean(attr, attrs)} They have: ${[...attrs].sort().join(', ')}`;
}

const retrieveNodes = defineTool({
  name: 'retrieve_nodes',
  description:
    "Guarded query template over the world model (AIMM's RetrieveNodes): finds nodes of one type, optionally where an attribute equals a value, and returns one attribute of each. Node types and attributes are checked against the world model's schema.",
  category: 'information',
  params: z.strictObject({
    node_type: z.string().min(1).describe('a node type in the world model, e.g. bowl, location, robot'),
    match_attribute: z.string().min(1).optional().describe('attribute to filter on'),
    match_value: z.union([z.string(), z.number(), z.boolean()]).optional().describe('value the match_attribute must equal'),
    return_attribute: z
      .string()
      .min(1)
      .describe('attribute to return for each node, e.g. mass_kg, colour, position (robot base frame: x forward, y left, z up), parent'),
  }),
  card: {
    outputs: 'the query as a template and one line per matching node',
    whenToUse: 'when the getters do not answer: properties of all nodes of a type',
    constraints: 'templates only; no free-form queries',
    dimension: 'cognition',
    requires: ['world_model'],
    tags: ['query', 'cypher', 'template'],
  },
  execute: async ({ node_type, match_attribute, match_value, return_attribute }, { robot }) => {
    const nodes = await robot.worldModel!.nodes();
    const schema = worldModelSchema(nodes);
    const problem =
      checkType(schema, node_type) ??
      (match_attribute ? checkAttr(schema, node_type, match_attribute, 'match_attribute') : undefined) ??
      checkAttr(schema, node_type, return_attribute, 'return_attribute') ??
      ((match_attribute === undefined) !== (match_value === undefined)
        ? 'give match_attribute and match_value together, or neither'
        : undefined);
    if (problem) return fail(problem);
    const where = match_attribute ? ` WHERE n.${match_attribute} = ${JSON.stringify(match_value)}` : '';
    const query = `MATCH (n:${node_type})${where} RETURN n.id, n.${return_attribute}`;
    const hits = nodes.filter((n) => n.type === node_type && (match_attribute === undefined || field(n, match_attribute) === match_value));
    const base = await robot.perception.basePose();
    const rows = hits.map((n) => ({ id: n.id, [return_attribute]: field(n, return_attribute, base) }));
    return ok(`${query}\n${rows.length ? rows.map((r) => `- ${r.id}: ${show(r[return_attribute])}`).join('\n') : '(no nodes match)'}`, {
      query,
      rows,
    });
  },
});

const retrieveParentOrChild = defineTool({
  name: 'retrieve_parent_or_child',
  description:
    "Guarded query template over the world-model tree (AIMM's RetrieveParentOrChild): the parent of a node (what it is on, in or at) or its children (what is on or in it), returning one attribute of each.",
  category: 'information',
  params: z.strictObject({
    node_name: z.string().min(1).describe('the node to start from (fuzzy names are resolved)'),
    direction: z.enum(['parent', 'children']),
    relation: z.enum(['on', 'in', 'at', 'any']).default('any').describe('only edges of this relation'),
    return_attribute: z.string().min(1).default('id').describe('attribute to return for each related node'),
  }),
  card: {
    outputs: 'the query as a template and the related nodes',
    whenToUse: 'what is in X? what is X on?',
    constraints: 'templates only; no free-form queries',
    dimension: 'cognition',
    requires: ['world_model'],
    tags: ['query', 'cypher', 'template', 'relation'],
  },
  execute: async ({ node_name, direction, relation, return_attribute }, { robot }) =>
    guarded(async () => {
      const nodes = await robot.worldModel!.nodes();
      const byId = new Map(nodes.map((n) => [n.id, n]));
      const id = byId.has(node_name) ? node_name : await resolveName(robot, node_name, ['object', 'location']);
      const start = byId.get(id);
      if (!start) return fail(`${id} is not in the world model (the robot has not perceived it)`);
      const rel = relation === 'any' ? '' : `:${relation.toUpperCase()}`;
      let related: WorldModelNode[];
      let query: string;
      if (direction === 'parent') {
        query = `MATCH (c {id: ${JSON.stringify(id)}})-[r${rel}]->(p) RETURN type(r), p.${return_attribute}`;
        const p = start.parent ? byId.get(start.parent) : undefined;
        related = p && (relation === 'any' || start.relation === relation) ? [p] : [];
      } else {
        query = `MATCH (c)-[r${rel}]->(p {id: ${JSON.stringify(id)}}) RETURN c.id, type(r), c.${return_attribute}`;
        related = nodes.filter((n) => n.parent === id && (relation === 'any' || n.relation === relation));
      }
      const known = new Set(related.flatMap((n) => [...NODE_FIELDS, ...Object.keys(n.attributes)]));
      if (related.length && !known.has(return_attribute))
        return fail(
          `return_attribute "${return_attribute}" is not an attribute of the related nodes; they have: ${[...known].sort().join(', ')}`,
        );
      const base = await robot.perception.basePose();
      const edge = (n: WorldModelNode): string =>
        direction === 'parent' ? (start.relation ?? 'related to') : (n.relation ?? 'related to');
      const lines = related.map(
        (n) =>
          `- ${direction === 'parent' ? `${id} is ${edge(n)} ${n.id}` : `${n.id} is ${edge(n)} ${id}`}${return_attribute === 'id' ? '' : `; ${return_attribute}: ${show(field(n, return_attribute, base))}`}`,
      );
      return ok(`${query}\n${lines.length ? lines.join('\n') : '(nothing related)'}`, { query, nodes: related.map((n) => n.id) });
    }),
});

export const WORLD_MODEL_QUERIES: Tool[] = [retrieveNodes, retrieveParentOrChild];

/** AIMM's fallback step: the model asks for the query templates when getters and setters do not suffice. */
export const requestQueryTools = defineTool({
  name: 'request_query_tools',
  description:
    'Use when the getters and setters cannot answer: unlocks guarded query templates (retrieve_nodes, retrieve_parent_or_child) over the world model.',
  category: 'information',
  params: z.strictObject({ reason: z.string().min(1).describe('why the getters and setters are not enough') }),
  card: {
    outputs: 'the query tools become available',
    whenToUse: 'only after the getters and setters do not suffice',
    dimension: 'reasoning',
    requires: ['world_model'],
    tags: ['hierarchy', 'query'],
  },
  execute: async ({ reason }) => ok(`Query templates unlocked (${reason}). Use retrieve_nodes or retrieve_parent_or_child.`),
});
