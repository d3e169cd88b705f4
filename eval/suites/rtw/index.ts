// The Robotic Tool Workflows suite (paper 000): TORO's bounded motions
// (rtw/basic), MAYA's information and task requests with tools generated from
// the world (rtw/hierarchical), and AIMM's world-model getters, setters and
// guarded queries (rtw/world-model), on the kitchen. Each case carries its
// workflow (--workflow overrides it). Success is a predicate on the final world
// (the base moved 30 cm, the fridge is open, the world model holds tray_1) or,
// for questions, the answer naming what the world says; range violations count
// the calls refused for a parameter outside its bounds (the paper's guardrails).
import { z } from 'zod';
import { rtwReport } from '../../report/specs/rtw';
import { PlanStep } from '../../core/case';
import { playPlan } from '../../core/play';
import type { CaseOf, GenerateContext, Suite } from '../../core/suite';
import { receivedText, worldVocabulary } from '../../core/received';
import { planPolicy } from '../../reference/policies';
import { names } from '../raider/score';
import { namesMatch, numbersIn, numbersMatch, tolOf } from './answer';

const Check = z.discriminatedUnion('kind', [
  /** The base moved this far in its own start frame (m, m, degrees), within a tolerance. */
  z.object({ kind: z.literal('moved'), forward: z.number(), left: z.number(), turnDeg: z.number(), tol: z.number(), tolDeg: z.number() }),
  z.object({ kind: z.literal('gripper_up'), dy: z.number(), tol: z.number() }),
  z.object({ kind: z.literal('state'), object: z.string(), state: z.string(), value: z.boolean() }),
  z.object({ kind: z.literal('holding'), object: z.string() }),
  z.object({ kind: z.literal('at'), place: z.string() }),
  z.object({ kind: z.literal('called'), tool: z.string(), args: z.record(z.string(), z.unknown()) }),
  /** The answer names, for each entry, one of its alternatives. */
  z.object({
    kind: z.literal('answer'),
    mentions: z.array(z.array(z.string())),
    atLeast: z.number().int(),
    /** With precision: naming any other object or place of the world fails; `allow` lists the question's own subject. */
    precise: z.boolean().optional(),
    allow: z.array(z.string()).optional(),
  }),
  /** The answer gives these quantities (2 % tolerance) and no other number. */
  z.object({ kind: z.literal('numbers'), values: z.array(z.number()) }),
  z.object({ kind: z.literal('wm_node'), id: z.string(), parent: z.string() }),
  z.object({ kind: z.literal('wm_attr'), id: z.string(), key: z.string(), value: z.union([z.string(), z.number(), z.boolean()]) }),
]);
type Check = z.infer<typeof Check>;

export const RtwGold = z.object({
  workflow: z.string(),
  /** The category the classify step should choose (MAYA, AIMM); null for TORO. */
  route: z.string().nullable(),
  plan: z.array(PlanStep),
  final: z.string(),
  checks: z.array(Check),
  start: z.object({ x: z.number(), z: z.number(), yawDeg: z.number(), tcpY: z.number().nullable() }),
});
export type RtwGold = z.infer<typeof RtwGold>;

interface RtwSpec {
  id: string;
  robot: 'toro' | 'maya' | 'aimm';
  at: string;
  request: 'information' | 'task' | 'getter' | 'setter' | 'query';
  instruction: string;
  plan: PlanStep[];
  /** Checks and the final answer, from the world after the plan ran (tool results give the facts an answer must name). */
  expect(w: { results: Array<{ tool: string; content: string; data: unknown }> }): { checks: Check[]; final: string };
}

const step = (tool: string, args: Record<string, unknown> = {}): PlanStep => ({ tool, args });
const WORKFLOW = { toro: 'rtw/basic', maya: 'rtw/hierarchical', aimm: 'rtw/world-model' } as const;
const moved = (forward: number, left: number, turnDeg: number): Check => ({ kind: 'moved', forward, left, turnDeg, tol: 0.04, tolDeg: 6 });

const SPECS: RtwSpec[] = [
  // ---- TORO: bounded, pre-planned motions (forward ±0.15 m, left ±0.1 m, turn ±45° per step)
  {
    id: 'toro/step-10cm',
    robot: 'toro',
    at: 'kitchen_centre',
    request: 'task',
    instruction: 'Take a step forward of 10 centimetres.',
    plan: [step('take_a_step', { forward: 0.1 })],
    expect: () => ({ checks: [moved(0.1, 0, 0)], final: 'I stepped 10 cm forward.' }),
  },
  {
    id: 'toro/forward-30cm',
    robot: 'toro',
    at: 'kitchen_centre',
    request: 'task',
    instruction: 'Move 30 cm forward.',
    plan: [step('take_a_step', { forward: 0.15 }), step('take_a_step', { forward: 0.15 })],
    expect: () => ({ checks: [moved(0.3, 0, 0)], final: 'I took two steps of 15 cm: 30 cm forward.' }),
  },
  {
    id: 'toro/turn-left-90',
    robot: 'toro',
    at: 'kitchen_centre',
    request: 'task',
    instruction: 'Turn left by 90 degrees.',
    plan: [step('take_a_step', { turn: 45 }), step('take_a_step', { turn: 45 })],
    expect: () => ({ checks: [moved(0, 0, 90)], final: 'I turned left by 90 degrees in two steps.' }),
  },
  {
    id: 'toro/left-20cm',
    robot: 'toro',
    at: 'kitchen_centre',
    request: 'task',
    instruction: 'Step 20 cm to your left.',
    plan: [step('take_a_step', { left: 0.1 }), step('take_a_step', { left: 0.1 })],
    expect: () => ({ checks: [moved(0, 0.2, 0)], final: 'I stepped 20 cm to the left.' }),
  },
  {
    id: 'toro/wave',
    robot: 'toro',
    at: 'kitchen_centre',
    request: 'task',
    instruction: 'Wave three times.',
    plan: [step('wave', { times: 3 })],
    expect: () => ({ checks: [{ kind: 'called', tool: 'wave', args: { times: 3 } }], final: 'I waved three times.' }),
  },
  {
    id: 'toro/gripper-up',
    robot: 'toro',
    at: 'kitchen_centre',
    request: 'task',
    instruction: 'Raise your gripper by 5 centimetres.',
    plan: [step('nudge_arm', { up: 0.05 })],
    expect: () => ({ checks: [{ kind: 'gripper_up', dy: 0.05, tol: 0.015 }], final: 'I raised the gripper by 5 cm.' }),
  },
  {
    id: 'toro/payload',
    robot: 'toro',
    at: 'kitchen_centre',
    request: 'information',
    instruction: 'How heavy an object can your arm lift?',
    plan: [step('describe_yourself')],
    expect: ({ results }) => {
      const info = results[0]?.data as { arm?: { payloadKg: number } } | undefined;
      const kg = info?.arm?.payloadKg;
      if (kg === undefined) throw new Error('rtw toro/payload: describe_yourself gave no arm payload');
      return { checks: [{ kind: 'numbers', values: [kg] }], final: `My arm lifts at most ${kg} kg.` };
    },
  },
  // ---- MAYA: classify information or task; task tools generated from what the robot sees
  {
    id: 'maya/open-fridge',
    robot: 'maya',
    at: 'fridge_1',
    request: 'task',
    instruction: 'Open the fridge.',
    plan: [step('open_fridge_1')],
    expect: () => ({ checks: [{ kind: 'state', object: 'fridge_1', state: 'open', value: true }], final: 'The fridge is open.' }),
  },
  {
    id: 'maya/pick-blue-mug',
    robot: 'maya',
    at: 'counter_1',
    request: 'task',
    instruction: 'Pick up the blue mug.',
    plan: [step('pick_mug_2')],
    expect: () => ({ checks: [{ kind: 'holding', object: 'mug_2' }], final: 'I am holding the blue mug.' }),
  },
  {
    id: 'maya/toaster-on',
    robot: 'maya',
    at: 'counter_1',
    request: 'task',
    instruction: 'Switch on the toaster.',
    plan: [step('switch_on_toaster_1')],
    expect: () => ({ checks: [{ kind: 'state', object: 'toaster_1', state: 'on', value: true }], final: 'The toaster is on.' }),
  },
  {
    id: 'maya/open-microwave',
    robot: 'maya',
    at: 'counter_3',
    request: 'task',
    instruction: 'Please open the microwave.',
    plan: [step('open_microwave_1')],
    expect: () => ({ checks: [{ kind: 'state', object: 'microwave_1', state: 'open', value: true }], final: 'The microwave is open.' }),
  },
  {
    id: 'maya/go-counter',
    robot: 'maya',
    at: 'dining_table_1',
    request: 'task',
    instruction: 'Go to the counter with the coffee machine.',
    plan: [step('go_to_counter_1')],
    expect: () => ({ checks: [{ kind: 'at', place: 'counter_1' }], final: 'I am at the counter with the coffee machine.' }),
  },
  {
    id: 'maya/safety',
    robot: 'maya',
    at: 'counter_1',
    request: 'information',
    instruction: 'What safety features do you have?',
    plan: [step('explain_safety_features')],
    expect: () => ({
      checks: [{ kind: 'answer', mentions: [['emergency stop', 'e-stop', 'estop']], atLeast: 1 }],
      final: 'An emergency stop halts every motion at once, and every action can be stopped.',
    }),
  },
  {
    id: 'maya/what-do-you-see',
    robot: 'maya',
    at: 'counter_1',
    request: 'information',
    instruction: 'What do you see in front of you?',
    plan: [step('what_do_you_see')],
    expect: ({ results }) => {
      // By id: a display name ("white mug") can be said without looking; only the tool's output gives the ids.
      const seen = ((results[0]?.data ?? []) as Array<{ id: string; name: string }>).map((d) => [d.id, d.name]);
      return {
        checks: [{ kind: 'answer', mentions: seen.map((s) => [s[0]!]), atLeast: Math.min(3, seen.length), precise: true }],
        final: `I see ${seen.map((s) => `${s[1]} (${s[0]})`).join(', ')}.`,
      };
    },
  },
  // ---- AIMM: getters and setters of the world model; guarded query templates when they do not suffice
  {
    id: 'aimm/where-blue-mug',
    robot: 'aimm',
    at: 'counter_1',
    request: 'getter',
    instruction: 'Where is the blue mug?',
    plan: [step('get_object_poses', { object_name: 'mug_2' })],
    expect: ({ results }) => {
      const parent = String((results[0]?.data as { parent?: string } | undefined)?.parent ?? '?');
      return {
        checks: [{ kind: 'answer', mentions: [[parent]], atLeast: 1, precise: true, allow: ['mug_2'] }],
        final: `The blue mug (mug_2) is on ${parent}.`,
      };
    },
  },
  {
    id: 'aimm/empty-storages',
    robot: 'aimm',
    at: 'counter_1',
    request: 'getter',
    instruction: 'Which storages are empty?',
    plan: [step('get_empty_storages')],
    expect: ({ results }) => {
      // The tool answers { empty, unknown }: only storages known to be empty are the gold (closed ones are unknown, not empty).
      const data = results[0]?.data as { empty?: unknown } | undefined;
      const ids = Array.isArray(data?.empty) ? data.empty.filter((i): i is string => typeof i === 'string') : [];
      // When none is known empty, naming none is the answer: credit then needs the answer to come from the tool.
      return {
        checks: [
          { kind: 'called', tool: 'get_empty_storages', args: {} },
          { kind: 'answer', mentions: ids.map((i) => [i]), atLeast: ids.length, precise: true },
        ],
        final: ids.length ? `Empty storages: ${ids.join(', ')}.` : 'No storage is known to be empty.',
      };
    },
  },
  {
    id: 'aimm/add-tray',
    robot: 'aimm',
    at: 'counter_1',
    request: 'setter',
    instruction: 'There is a tray on the free table; add it to the world model as tray_1.',
    plan: [step('add_object', { object_name: 'tray_1', parent_name: 'free_table', object_type: 'tray' })],
    expect: () => ({ checks: [{ kind: 'wm_node', id: 'tray_1', parent: 'free_table' }], final: 'Added tray_1 on the free table.' }),
  },
  {
    id: 'aimm/owner',
    robot: 'aimm',
    at: 'counter_1',
    request: 'setter',
    instruction: 'The white mug belongs to Anna; record that as its owner.',
    plan: [step('set_object_property', { object_name: 'mug_1', property_name: 'owner', value: 'Anna' })],
    expect: () => ({ checks: [{ kind: 'wm_attr', id: 'mug_1', key: 'owner', value: 'Anna' }], final: 'mug_1.owner = Anna.' }),
  },
  {
    id: 'aimm/mug-masses',
    robot: 'aimm',
    at: 'counter_1',
    request: 'query',
    instruction: 'What is the mass of each mug?',
    plan: [step('request_query_tools'), step('retrieve_nodes', { node_type: 'mug', return_attribute: 'mass_kg' })],
    expect: ({ results }) => {
      const rows = ((results[1]?.data as { rows?: Array<Record<string, unknown>> } | undefined)?.rows ?? []).map((r) => [
        String(r['id']),
        String(r['mass_kg']),
      ]);
      return {
        checks: [
          { kind: 'numbers', values: rows.map((r) => Number(r[1])) },
          { kind: 'answer', mentions: rows.map((r) => [r[0]!]), atLeast: rows.length, precise: true },
        ],
        final: rows.map((r) => `${r[0]}: ${r[1]} kg`).join('; ') || 'No mugs are known.',
      };
    },
  },
];

async function generate(ctx: GenerateContext): Promise<Array<CaseOf<RtwGold>>> {
  const out: Array<CaseOf<RtwGold>> = [];
  for (const s of SPECS) {
    const world = { key: `rtw/${s.at}`, scene: 'kitchen', edits: [{ kind: 'robot' as const, at: s.at }], setup: [] };
    const workflow = WORKFLOW[s.robot];
    const toolSet = s.robot === 'toro' ? 'rtw-basic' : s.robot === 'maya' ? 'rtw-hierarchical' : 'world-model-queries';
    // The plan runs in the world first: its results give the facts an answer must name, and a plan that fails is a broken case.
    const r = await ctx.inWorld(world, async ({ robot, control }) => {
      const b = control.world.body.basePose;
      const tcp = control.world.tcp();
      const start = { x: b.p.x, z: b.p.z, yawDeg: yawDeg(b.q), tcpY: tcp ? tcp.p.y : null };
      const all = s.robot === 'aimm' ? ['world-model', 'world-model-queries'] : toolSet;
      const played = await playPlan(
        robot,
        control,
        all,
        s.plan.filter((p) => p.tool !== 'request_query_tools').map((p) => p),
        { keepGoing: true },
      );
      const results = s.plan.map((p) => {
        const hit = played.played.find((x) => x.step === p);
        return { tool: p.tool, content: hit?.result.content ?? '', data: hit?.result.data };
      });
      return { start, played, results };
    });
    if (!r.played.ok)
      throw new Error(`rtw ${s.id}: the reference plan fails in the world: ${r.played.played.find((x) => !x.result.ok)?.result.content}`);
    const { checks, final } = s.expect({ results: r.results });
    out.push({
      id: s.id,
      suite: 'rtw',
      world,
      instruction: s.instruction,
      labels: { request: s.request, scene: 'kitchen', robot: s.robot.toUpperCase(), workflow },
      limits: { maxIterations: 10 },
      gold: {
        workflow,
        route:
          s.robot === 'maya'
            ? s.request === 'information'
              ? 'information'
              : 'task'
            : s.robot === 'aimm'
              ? s.request === 'setter'
                ? 'setter'
                : 'getter'
              : null,
        plan: s.plan,
        final,
        checks,
        start: r.start,
      },
    });
  }
  return out;
}

function yawDeg(q: { x: number; y: number; z: number; w: number }): number {
  return (Math.atan2(2 * (q.w * q.y + q.x * q.z), 1 - 2 * (q.y * q.y + q.x * q.x)) * 180) / Math.PI;
}

export const rtwSuite: Suite<RtwGold> = {
  id: 'rtw',
  title: 'Robotic tool workflows: TORO, MAYA, AIMM',
  paper: '000 §III',
  report: rtwReport,
  defaultWorkflow: 'per-case',
  // Each case runs on its robot's own workflow and tools (TORO, MAYA, AIMM), as in the paper.
  protocol: { workflows: ['per-case'], toolSets: ['rtw-basic', 'rtw-hierarchical', 'world-model-queries'] },
  workflows: ['rtw/basic', 'rtw/hierarchical', 'rtw/world-model'],
  gold: RtwGold,
  generate,
  caseWorkflow: (c) => c.gold.workflow,
  async score(c, o) {
    const calls = o.events.filter((e) => e.type === 'tool_end');
    const final = o.turn.final ?? '';
    const w = o.control.world;
    // Precision by every name an object goes by (id and display name): "the counter" names counter_1 as its id does.
    const universe = worldVocabulary(o.control, o.robot.info.places);
    // An answer earns credit only for facts a tool of this case gave the model: a name or a quantity said without
    // a successful call that revealed it is a guess, however often it is right (one static answer for every case).
    const got = receivedText(o.events, c.instruction);
    const gotNumbers = numbersIn(got);
    const ok = await Promise.all(
      c.gold.checks.map(async (k) => {
        switch (k.kind) {
          case 'moved': {
            const b = w.body.basePose;
            const dx = b.p.x - c.gold.start.x;
            const dz = b.p.z - c.gold.start.z;
            const yaw = (c.gold.start.yawDeg * Math.PI) / 180;
            // The robot's frame: forward along +x rotated by yaw (y up), left along −z rotated.
            const fwd = dx * Math.cos(yaw) - dz * Math.sin(yaw);
            const left = -dx * Math.sin(yaw) - dz * Math.cos(yaw);
            let turn = yawDeg(b.q) - c.gold.start.yawDeg;
            turn = ((turn + 540) % 360) - 180;
            return Math.abs(fwd - k.forward) <= k.tol && Math.abs(left - k.left) <= k.tol && Math.abs(turn - k.turnDeg) <= k.tolDeg;
          }
          case 'gripper_up': {
            const t = w.tcp();
            return t !== undefined && c.gold.start.tcpY !== null && Math.abs(t.p.y - c.gold.start.tcpY - k.dy) <= k.tol;
          }
          case 'state':
            return (w.entities.get(k.object)?.states as Record<string, boolean> | undefined)?.[k.state] === k.value;
          case 'holding':
            return o.control.holding() === k.object;
          case 'at':
            return w.body.at === k.place;
          case 'called':
            return o.events.some(
              (e, i) =>
                e.type === 'tool_start' &&
                e.name === k.tool &&
                Object.entries(k.args).every(
                  ([a, v]) => JSON.stringify((JSON.parse(e.arguments) as Record<string, unknown>)[a]) === JSON.stringify(v),
                ) &&
                o.events.slice(i).some((x) => x.type === 'tool_end' && x.id === e.id && x.ok && x.status === 'ok'),
            );
          case 'answer': {
            const heard = k.mentions.filter((alts) => names(got, alts));
            return namesMatch(final, heard, k.atLeast, k.precise ? universe : undefined, k.allow);
          }
          case 'numbers':
            return k.values.every((v) => gotNumbers.some((x) => Math.abs(x - v) <= tolOf(v))) && numbersMatch(final, k.values);
          case 'wm_node': {
            const n = await o.robot.worldModel?.node(k.id);
            return n?.parent === k.parent;
          }
          case 'wm_attr': {
            const n = await o.robot.worldModel?.node(k.id);
            return n?.attributes[k.key] === k.value;
          }
        }
      }),
    );
    const success = ok.every(Boolean);
    const range = calls.filter(
      (e) => e.type === 'tool_end' && e.status === 'invalid_arguments' && /too (big|small)|<=|>=|less than|greater than/i.test(e.content),
    ).length;
    const route = o.events.find((e) => e.type === 'route');
    const wrong = c.gold.route === null || !route || route.type !== 'route' ? null : route.route !== c.gold.route;
    return {
      metrics: { mission_success: success, range_violations: range, wrong_category: wrong },
      success,
      failureClass: success ? null : range ? 'range' : wrong ? 'wrong-category' : o.turn.final ? 'wrong-tool' : 'no-answer',
    };
  },
  oracle: (c) => planPolicy({ ...(c.gold.route ? { route: c.gold.route } : {}), steps: c.gold.plan, final: c.gold.final }),
  trivialAnswer: () => 'Done.',
  floors: [
    { floor: 'noop', maxScore: 0 },
    { floor: 'none', maxScore: 0 },
    { floor: 'random', maxScore: 0.3 },
  ],
};
