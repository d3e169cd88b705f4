// RAIDER's tool sets (paper 001): the household perception tools of Fig. 6,
// the user-information retrieval tool of §5.1 and the recovery actions of Fig. 7;
// the human-assistive tools of Fig. 16 are in raider-assistive.ts. Names and parameters follow the paper.
import { z } from 'zod';
import type { Robot } from '../../../robot/robot';
import { fail, guarded, list, metres, ok, outcomeResult, resolveName } from '../common';
import { type Tool, defineTool } from '../tool';

export const RAIDER_RELATIONS = ['blocking', 'inside', 'on top of', 'above', 'below', 'on the right of', 'on the left of', 'near'] as const;

const label = async (robot: Robot, id: string): Promise<string> => {
  const p = await robot.perception.objectProperties(id);
  const name = typeof p['name'] === 'string' ? p['name'] : undefined;
  return name && name !== id ? `${id} (${name})` : id;
};

export const robotHolding = defineTool({
  name: 'robot_holding',
  description: 'Identifies the object held by the robot.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'the id of the held object, or that the hand is empty',
    whenToUse: 'before pick, place, slice, open or handover: is the hand free, or holding the right thing?',
    dimension: 'perception',
    requires: ['arm'],
    tags: ['hand', 'gripper', 'holding', 'grasp'],
  },
  execute: async (_a, { robot }) => {
    const held = await robot.perception.holding();
    return ok(held ? `The robot is holding ${await label(robot, held)}.` : 'The robot is not holding anything.', { holding: held ?? null });
  },
});

export const objectDetection = defineTool({
  name: 'object_detection',
  description: 'Identifies visible objects.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'the ids and names of the objects the robot sees now',
    whenToUse: 'first, to ground the objects an instruction refers to',
    dimension: 'perception',
    requires: ['perception'],
    tags: ['see', 'visible', 'detect', 'objects', 'present'],
  },
  execute: async (_a, { robot }) => {
    const seen = await robot.perception.detect();
    return ok(
      `Visible objects: ${list(seen.map((d) => (d.name !== d.id ? `${d.id} (${d.name})` : d.id)))}.`,
      seen.map((d) => d.id),
    );
  },
});

export const distToTarget = defineTool({
  name: 'dist_to_target',
  description: 'Distance to a target, to check if target is reachable by the robot.',
  category: 'information',
  params: z.strictObject({ target: z.string().min(1).describe('object to measure the distance to') }),
  card: {
    outputs: 'distance in metres from the robot arm to the target',
    whenToUse: 'to check whether a target is within the arm reach',
    dimension: 'perception',
    requires: ['perception'],
    tags: ['distance', 'reach', 'reachable', 'far', 'close'],
  },
  execute: async ({ target }, { robot }) =>
    guarded(async () => {
      const id = await resolveName(robot, target, ['object'], 'visible');
      return reachAnswer(robot, id);
    }),
});

/**
 * Distance with the verdict pick would give: the robot measures from the arm's
 * shoulder to where the fingers would close on the object (the one definition
 * of reach pick uses), and says whether the arm can grasp it from here.
 */
export async function reachAnswer(robot: Robot, id: string): Promise<ReturnType<typeof ok>> {
  const d = await robot.perception.distanceTo(id);
  const p = await robot.perception.objectProperties(id);
  const pickable = (p['properties'] as Record<string, boolean> | undefined)?.['pickable'] === true;
  let verdict = '';
  let reachable: boolean | null = null;
  if (robot.arm && pickable) {
    const g = await robot.arm.graspPose(id);
    reachable = g.ok;
    verdict = g.ok ? '; the arm can grasp it from here' : `; the arm cannot grasp it from here (${g.summary})`;
  }
  const what = pickable && robot.arm ? "from the arm's shoulder to where the gripper would close on it" : 'from the robot';
  return ok(`${await label(robot, id)} is ${metres(d)} ${what}${verdict}.`, { target: id, distanceM: Number(d.toFixed(3)), reachable });
}

export const getObjState = defineTool({
  name: 'get_obj_state',
  description: "Retrieves an object's state (open/closed, on/off, sliced/not sliced, clean/dirty, empty/filled).",
  category: 'information',
  params: z.strictObject({ obj: z.string().min(1).describe('object whose state to read') }),
  card: {
    outputs: 'the states that apply to the object',
    whenToUse: 'to check a precondition on state: is the fridge open, the stove off, the mug clean?',
    dimension: 'perception',
    requires: ['perception'],
    tags: ['state', 'open', 'closed', 'on', 'off', 'sliced', 'dirty', 'clean', 'filled', 'empty'],
  },
  execute: async ({ obj }, { robot }) =>
    guarded(async () => {
      const id = await resolveName(robot, obj, ['object'], 'visible');
      const s = await robot.perception.objectState(id);
      const words = Object.entries(s).map(([k, v]) => stateWord(k, v));
      return ok(words.length ? `${await label(robot, id)} is ${words.join(', ')}.` : `${await label(robot, id)} has no changeable state.`, {
        obj: id,
        state: s,
      });
    }),
});

export function stateWord(k: string, v: boolean): string {
  switch (k) {
    case 'open':
      return v ? 'open' : 'closed';
    case 'on':
      return v ? 'on' : 'off';
    case 'sliced':
      return v ? 'sliced' : 'not sliced';
    case 'dirty':
      return v ? 'dirty' : 'clean';
    case 'filled':
      return v ? 'filled' : 'empty';
    case 'cooked':
      return v ? 'cooked' : 'raw';
    default:
      return v ? k : `not ${k}`;
  }
}

export const checkObjRelationship = defineTool({
  name: 'check_obj_relationship',
  description:
    'Retrieves the object(s) that have the queried {relationship} with the queried object {obj}, if any: blocking, inside, on top of, above, below, on the right of, on the left of, near. Example: what is inside the fridge -> check_obj_relationship("inside", "fridge").',
  category: 'information',
  params: z.strictObject({
    relationship: z.enum(RAIDER_RELATIONS).describe('the spatial relationship to check'),
    obj: z.string().min(1).describe('the reference object'),
  }),
  card: {
    outputs: 'ids of the objects in that relationship with obj, or none',
    whenToUse: 'to ground "the X left of the Y", and to find obstructions: blocking, inside, on top of',
    dimension: 'perception',
    requires: ['perception'],
    tags: ['relation', 'spatial', 'blocking', 'inside', 'on top', 'left', 'right', 'above', 'below', 'near', 'obstruct'],
  },
  execute: async ({ relationship, obj }, { robot }) =>
    guarded(async () => {
      const id = await resolveName(robot, obj, ['object'], 'visible');
      const found = await robot.perception.related(relationship, id);
      const st = await robot.perception.objectState(id);
      // Nothing seen inside is not nothing inside: closed, or not looked into since a change it could have missed.
      const unlooked =
        relationship === 'inside' && (await robot.worldModel?.node(id))?.attributes['contents_known'] === false
          ? ` (the robot has not looked inside ${id} since something could have changed there, so what is inside is not known)`
          : '';
      const closed = relationship === 'inside' && st['open'] === false;
      const hidden = closed ? ` (${id} is closed, so its inside cannot be seen)` : unlooked;
      // What it lists of an inside it cannot see now is what it last knew: there may be more.
      const partly = closed
        ? ` (${id} is closed, so its inside cannot be seen: these are what the robot last knew in it, there may be more)`
        : unlooked &&
          ` (the robot has not looked inside ${id} since something could have changed there: these are as last seen, there may be more or fewer)`;
      const labels = await Promise.all(found.map((f) => label(robot, f)));
      return ok(
        found.length
          ? `Objects ${relationship} ${await label(robot, id)}: ${labels.join(', ')}${partly}.`
          : `No objects ${relationship} ${await label(robot, id)}${hidden}.`,
        found,
      );
    }),
});

export const getObjProperties = defineTool({
  name: 'get_obj_properties',
  description: 'Details object properties (e.g., pickable, cookable, toggleable, openable, sliceable, receptacle).',
  category: 'information',
  params: z.strictObject({ obj: z.string().min(1).describe('object whose properties to read') }),
  card: {
    outputs: 'properties, category and physical attributes of the object',
    whenToUse: 'for common-sense checks: can it be picked, opened, switched on, sliced? how heavy is it?',
    dimension: 'perception',
    requires: ['perception'],
    tags: ['properties', 'pickable', 'openable', 'toggleable', 'sliceable', 'cookable', 'weight', 'category'],
  },
  execute: async ({ obj }, { robot }) =>
    guarded(async () => {
      const id = await resolveName(robot, obj, ['object'], 'visible');
      const p = await robot.perception.objectProperties(id);
      const flags = Object.entries((p['properties'] ?? {}) as Record<string, boolean>)
        .filter(([, v]) => v)
        .map(([k]) => k);
      const mass = typeof p['massKg'] === 'number' ? `, weighs ${(p['massKg'] as number).toFixed(2)} kg` : '';
      return ok(
        `${await label(robot, id)}: ${flags.length ? flags.join(', ') : 'no special properties'}; category ${String(p['category'])}${mass}.`,
        p,
      );
    }),
});

export const RAIDER_HOUSEHOLD: Tool[] = [robotHolding, objectDetection, distToTarget, getObjState, checkObjRelationship, getObjProperties];

// ---------------------------------------------------------------- §5.1 user information

/** Picks the corpus entry sharing most content words with the query (RAIDER used sentence embeddings). */
export function retrieveUserInfo(corpus: readonly string[], query: string): string | undefined {
  const words = (s: string) =>
    new Set(
      s
        .toLowerCase()
        .split(/[^a-z0-9']+/)
        .filter((w) => w.length > 2)
        .map((w) => w.replace(/(s|es)$/, '')),
    );
  const q = words(query);
  let best: { s: string; score: number } | undefined;
  for (const entry of corpus) {
    const e = words(entry);
    let score = 0;
    for (const w of q) if (e.has(w)) score++;
    if (score > 0 && (!best || score > best.score)) best = { s: entry, score };
  }
  return best?.s;
}

export function retrieveUserInformation(corpus: readonly string[]): Tool {
  return defineTool({
    name: 'retrieve_user_information',
    description:
      "Retrieves the stored fact about the user (preferences and recent activity) most relevant to a query, e.g. 'favourite fruit' or 'pan used last'.",
    category: 'information',
    params: z.strictObject({ query: z.string().min(2).describe('what to look up about the user') }),
    card: {
      outputs: 'one sentence about the user, or nothing relevant',
      whenToUse: 'when an instruction refers to the user\'s preferences or history ("my favourite drink", "the pan I used")',
      dimension: 'cognition',
      tags: ['user', 'preference', 'favourite', 'history', 'memory'],
    },
    execute: async ({ query }) => {
      const hit = retrieveUserInfo(corpus, query);
      return hit ? ok(hit, { entry: hit }) : ok('No stored information about the user matches that query.');
    },
  });
}

// ---------------------------------------------------------------- Fig. 7 recovery actions

/** §5.2's last plan step: hand the held object to a person (within 0.5 m, looking, with a free hand). */
export const handoverTool = defineTool({
  name: 'handover',
  description: 'Hands the object the robot holds to a person, who must be within 0.5 m, have a free hand and look at the robot.',
  category: 'action',
  params: z.strictObject({
    object: z.string().min(1).describe('the object the robot holds'),
    person: z.string().min(1).describe('the person (id or name)'),
  }),
  card: {
    outputs: 'success, or why the person cannot take it',
    whenToUse: 'to give the held object to a person',
    dimension: 'execution',
    requires: ['arm', 'people'],
    tags: ['handover', 'give', 'deliver'],
  },
  execute: async ({ object, person }, { robot, signal }) =>
    guarded(async () => {
      const id = await resolveName(robot, object);
      const held = await robot.perception.holding();
      if (held !== id) return fail(`the robot is ${held ? `holding ${held}` : 'not holding anything'}, not ${id}`);
      return outcomeResult(await robot.arm!.handover(await resolveName(robot, person, ['person']), signal));
    }),
});

const objParam = z.strictObject({ object: z.string().min(1).describe('object name or id') });

/** The actions a recovery plan may use (Fig. 7), as callable tools. */
export const RAIDER_RECOVERY: Tool[] = [
  defineTool({
    name: 'ask',
    description: 'Asks the human a question and waits for the answer.',
    category: 'action',
    params: z.strictObject({ question: z.string().min(1) }),
    card: {
      outputs: 'the answer, or that nobody answered',
      whenToUse: 'when information is missing or the instruction is ambiguous',
      dimension: 'execution',
      requires: ['speech'],
      tags: ['ask', 'question', 'clarify', 'human'],
    },
    execute: async ({ question }, { robot, signal }) => outcomeResult(await robot.speech!.ask(question, 30, signal)),
  }),
  defineTool({
    name: 'say',
    description: 'Says a statement to the human.',
    category: 'action',
    params: z.strictObject({ statement: z.string().min(1) }),
    card: {
      outputs: 'confirmation',
      whenToUse: 'to explain an issue or report progress',
      dimension: 'execution',
      requires: ['speech'],
      tags: ['say', 'tell', 'explain', 'speak'],
    },
    execute: async ({ statement }, { robot }) => outcomeResult(await robot.speech!.say(statement)),
  }),
  defineTool({
    name: 'move_to',
    description: 'Moves the robot base to a location (a counter, appliance, table or person).',
    category: 'action',
    params: z.strictObject({ location: z.string().min(1).describe('a named location, an object or a person') }),
    card: {
      outputs: 'arrival, or why the way is blocked',
      whenToUse: 'to get within reach of something',
      dimension: 'execution',
      requires: ['base'],
      tags: ['move', 'go', 'navigate', 'drive', 'approach'],
    },
    execute: async ({ location }, { robot, signal }) =>
      guarded(async () => {
        const r = await robot.perception.resolve(location, { kinds: ['location', 'person', 'object'] });
        if (!r.ok) return fail(r.message);
        return outcomeResult(r.kind === 'location' ? await robot.base!.navigate(r.id, signal) : await robot.base!.approach(r.id, signal));
      }),
  }),
  defineTool({
    name: 'pick',
    description: 'Picks up an object with the gripper.',
    category: 'action',
    params: objParam,
    card: {
      outputs: 'success, or the physical reason it failed',
      whenToUse: 'to take an object; the hand must be empty',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['pick', 'grasp', 'take', 'grab'],
    },
    execute: async ({ object }, { robot, signal }) =>
      guarded(async () => outcomeResult(await robot.arm!.pick(await resolveName(robot, object), signal))),
  }),
  defineTool({
    name: 'place',
    description: 'Places the held object on or in a target (a counter, table, container or appliance).',
    category: 'action',
    params: objParam,
    card: {
      outputs: 'success, or why it could not be placed',
      whenToUse: 'to put down what the robot holds',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['place', 'put', 'drop', 'set down'],
    },
    execute: async ({ object }, { robot, signal }) =>
      guarded(async () => outcomeResult(await robot.arm!.place({ kind: 'object', id: await resolveName(robot, object) }, signal))),
  }),
  defineTool({
    name: 'slice',
    description: 'Slices an object with the knife the robot holds.',
    category: 'action',
    params: objParam,
    card: {
      outputs: 'success, or why it could not slice',
      whenToUse: 'to slice food; needs a knife in the hand',
      dimension: 'execution',
      requires: ['arm'],
      tags: ['slice', 'cut', 'knife'],
    },
    execute: async ({ object }, { robot, signal }) =>
      guarded(async () => outcomeResult(await robot.arm!.slice(await resolveName(robot, object), signal))),
  }),
  ...(['open', 'close'] as const).map((verb) =>
    defineTool({
      name: verb,
      description: `${verb === 'open' ? 'Opens' : 'Closes'} an openable object (fridge, cabinet, drawer, microwave).`,
      category: 'action',
      params: objParam,
      card: {
        outputs: 'success, or why not',
        whenToUse: `to ${verb} a door or drawer; needs a free hand`,
        dimension: 'execution',
        requires: ['arm'],
        tags: [verb, 'door', 'drawer'],
      },
      execute: async ({ object }, { robot, signal }) =>
        guarded(async () => outcomeResult(await robot.arm!.setOpen(await resolveName(robot, object), verb === 'open', signal))),
    }),
  ),
  ...(['turnon', 'turnoff'] as const).map((verb) =>
    defineTool({
      name: verb,
      description: `Switches an appliance ${verb === 'turnon' ? 'on' : 'off'}.`,
      category: 'action',
      params: objParam,
      card: {
        outputs: 'success, or why not',
        whenToUse: `to switch an appliance ${verb === 'turnon' ? 'on' : 'off'}; needs a free hand`,
        dimension: 'execution',
        requires: ['arm'],
        tags: ['switch', 'turn', verb === 'turnon' ? 'on' : 'off', 'appliance'],
      },
      execute: async ({ object }, { robot, signal }) =>
        guarded(async () => outcomeResult(await robot.arm!.setSwitch(await resolveName(robot, object), verb === 'turnon', signal))),
    }),
  ),
  handoverTool,
];
