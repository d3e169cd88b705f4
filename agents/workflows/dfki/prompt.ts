// The planner-and-executor prompt of paper 003 §4, built from the robot and its
// scene rather than written per scene. §4 lists the ingredients: (i) a domain
// model in natural language, (ii) an example semantic environment state, (iii)
// operational instructions — with the platform's safety invariants stated
// explicitly —, (iv) object and action affordances, (v) domain-specific
// heuristics, (vi) the action catalogue, (vii) planning and acting exemplars and
// (viii) an optional short memory of failure modes to avoid. A role line opens it
// and the output format closes it. "Transferring the planner and executor to a
// different robot primarily requires updating the domain model, affordances and
// action catalogue" (§4): here those come from `robot.info`, the perception and
// the capability-dependent catalogue of the dfki tool set.
import type { NamedPlace, Robot } from '../../../robot/robot';
import { actionCatalogue } from '../../tools/sets/dfki';

export type IngredientId =
  | 'role'
  | 'domain_model'
  | 'state_example'
  | 'operational_instructions'
  | 'affordances'
  | 'heuristics'
  | 'action_catalogue'
  | 'exemplars'
  | 'failure_memory'
  | 'output_format';

export interface PromptSection {
  id: IngredientId;
  title: string;
  text: string;
}

/** What the prompt needs that only an asynchronous robot can tell: read once when the workflow opens. */
export interface PromptFacts {
  /** The semantic snapshot when the conversation opened (ingredient ii). */
  snapshot: string[];
  /** Properties of the objects that snapshot names (ingredient iv). */
  objects: Array<{ id: string; name: string; category: string; massKg?: number; sizeM?: number[]; flags: string[]; capacity?: number }>;
}

/** Failure patterns the paper reports (§6, "Qualitative Observations"), as brief self-criticism. */
export const DEFAULT_FAILURE_MEMORY: readonly string[] = [
  'I called check_events several times in a row without acting in between; once after each action is enough.',
  'I placed an object although I had noticed the state was stale; I must refresh (snapshot, or perceive at the table) first.',
  'I explained how the task could be done instead of doing it; when the request is feasible, I act.',
  'I offered alternatives the robot cannot perform to please the person; I only offer what the action catalogue allows.',
];

export async function readPromptFacts(robot: Robot): Promise<PromptFacts> {
  const snapshot = await robot.perception.snapshot();
  const ids = new Set<string>();
  for (const f of snapshot) for (const m of f.matchAll(/\b([a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+)\b/g)) ids.add(m[1]!);
  const places = new Set(robot.info.places.map((p) => p.id));
  const objects: PromptFacts['objects'] = [];
  for (const id of [...ids].filter((i) => !places.has(i)).slice(0, 16)) {
    try {
      const p = await robot.perception.objectProperties(id);
      const props = (p['properties'] ?? {}) as Record<string, unknown>;
      const flags = Object.entries(props)
        .filter(([, v]) => v === true)
        .map(([k]) => k);
      const rec = p['receptacle'] as { capacity?: unknown } | undefined;
      objects.push({
        id,
        name: String(p['name'] ?? id),
        category: String(p['category'] ?? 'object'),
        ...(typeof p['massKg'] === 'number' ? { massKg: p['massKg'] } : {}),
        ...(Array.isArray(p['sizeM']) ? { sizeM: (p['sizeM'] as unknown[]).map(Number) } : {}),
        flags,
        ...(typeof rec?.capacity === 'number' ? { capacity: rec.capacity } : {}),
      });
    } catch {
      // A name in the snapshot that is not an object (a person, a region): not an affordance.
    }
  }
  return { snapshot, objects };
}

const bullets = (xs: readonly string[]): string => xs.map((x) => `- ${x}`).join('\n');

function placeLine(p: NamedPlace): string {
  return `${p.id} (${p.kind}${p.title && p.title !== p.id ? `: ${p.title}` : ''}${p.serves.length ? `; serves ${p.serves.join(', ')}` : ''})`;
}

function domainModel(robot: Robot): string {
  const i = robot.info;
  const caps = new Set(i.capabilities);
  const lines = [`${i.name}: ${i.description}`];
  const body: string[] = [];
  if (i.arm)
    body.push(
      `One arm: reach about ${i.arm.reachM} m, payload ${i.arm.payloadKg} kg, gripper opening ${i.arm.gripperOpeningM} m, postures ${i.arm.postures.join(', ')}. It holds one object at a time.`,
    );
  if (i.base)
    body.push(
      `A mobile base (footprint ${i.base.footprintM.join(' m x ')} m, up to ${i.base.maxSpeedMps} m/s) that drives between named places.`,
    );
  if (caps.has('rover')) body.push('A docking station: the robot charges only while docked.');
  if (caps.has('battery'))
    body.push(
      `A battery: okay above ${i.batteryThresholds.low}%, low at ${i.batteryThresholds.low}% or less, critical at ${i.batteryThresholds.critical}% or less.`,
    );
  if (caps.has('speech')) body.push('Speech: it can speak to people and listen for what they say.');
  if (caps.has('people')) body.push('It can see people around it.');
  if (!i.arm) body.push('It has no arm: it cannot pick, place or carry anything.');
  lines.push(bullets(body));
  if (i.places.length) lines.push(`Known places:\n${bullets(i.places.map(placeLine))}`);
  const obs = [
    'Your knowledge of the world is a snapshot: it can become stale after the robot moves, after a person intervenes, or through perception errors.',
    ...(caps.has('partial_observability')
      ? [
          'The robot knows only what it has perceived. Objects must be perceived again after the base moves before picking them; a table must be perceived before placing anything on it.',
        ]
      : []),
    ...(i.arm ? ['Whether a grasp holds cannot be sensed directly beyond holding(...) in the snapshot; check it after moving.'] : []),
  ];
  lines.push(`What can be observed:\n${bullets(obs)}`);
  if (i.scene.notes.length) lines.push(`About this site ("${i.scene.title}"):\n${bullets(i.scene.notes)}`);
  return lines.join('\n');
}

function operations(robot: Robot): string {
  const i = robot.info;
  const caps = new Set(i.capabilities);
  const rules = [
    'Start by getting the current state (get_semantic_environment_representation_snapshot) before the first action.',
    'Plan briefly with reflect, then execute one grounded action per act call.',
    'Refresh the state after an action whenever the next step depends on it.',
    ...(caps.has('events') ? ['Call check_events once after each action, and whenever an action failed unexpectedly.'] : []),
    'Do not stop while the request is unfulfilled and still feasible: act, do not only describe what could be done.',
    'If a result begins with "Interrupted:", a critical event stopped that action (the emergency stop, a critical battery, a person saying stop). Do not repeat it blindly: read the events, tell the person, and follow what the event requires.',
  ];
  const invariants: string[] = [];
  if (caps.has('events'))
    invariants.push(
      'While the emergency stop is pressed nothing can move: wait (act wait) and check events until it is released; never try to move meanwhile.',
    );
  if (i.arm && i.base) invariants.push('Move the arm to home or transport before every navigate; driving with the arm out is refused.');
  if (i.arm && caps.has('partial_observability'))
    invariants.push('Never place an object on a surface you have not perceived since arriving there.');
  const entries = i.places.filter((p) => p.kind === 'entry').map((p) => p.id);
  const docks = i.places.filter((p) => p.kind === 'dock').map((p) => p.id);
  if (caps.has('rover')) {
    invariants.push('Never drive while docked or inside the shelter: undock first.');
    if (entries.length)
      invariants.push(
        `Dock only from ${entries.join(' or ')}${docks.length ? `; ${docks.join(', ')} is reached only by docking, never by navigate` : ''}.`,
      );
  }
  if (caps.has('battery')) {
    const t = i.batteryThresholds;
    invariants.push(
      caps.has('rover')
        ? `When the battery turns low (${t.low}% or less), interrupt the mission: return to ${entries[0] ?? 'the shelter entry'}, dock, charge, then resume where you stopped. At critical (${t.critical}%) do not start any long drive.`
        : `At a critical battery (${t.critical}% or less) stop and report.`,
    );
  }
  if (caps.has('people')) invariants.push('Keep clear of people: if someone is in the way, wait or ask them to step aside.');
  return `${bullets(rules)}\nSafety invariants of this platform (never break them):\n${bullets(invariants.length ? invariants : ['Use only the actions of the catalogue.'])}`;
}

function affordances(robot: Robot, facts: PromptFacts): string {
  const i = robot.info;
  const lines: string[] = [];
  if (i.arm) {
    lines.push(
      `Objects heavier than ${i.arm.payloadKg} kg cannot be lifted; objects wider than the ${i.arm.gripperOpeningM} m gripper opening cannot be grasped; one object in the hand at a time.`,
    );
  }
  const serving = i.places.filter((p) => p.serves.length);
  if (serving.length)
    lines.push(`Places and what they give access to: ${serving.map((p) => `${p.id} → ${p.serves.join(', ')}`).join('; ')}.`);
  for (const o of facts.objects) {
    const notes = [...o.flags.filter((f) => ['pickable', 'receptacle', 'openable', 'toggleable', 'sliceable', 'fillable'].includes(f))];
    if (o.capacity !== undefined) notes.push(`holds up to ${o.capacity}`);
    if (o.massKg !== undefined) notes.push(`${o.massKg} kg`);
    if (i.arm && o.massKg !== undefined && o.massKg > i.arm.payloadKg) notes.push('too heavy to lift');
    if (i.arm && o.sizeM && o.sizeM.length === 3 && Math.min(o.sizeM[0]!, o.sizeM[2]!) > i.arm.gripperOpeningM)
      notes.push('too wide to grasp');
    lines.push(`${o.id} (${o.name}, ${o.category}): ${notes.join(', ') || 'fixed in place'}`);
  }
  return lines.length ? bullets(lines) : '- Only the actions of the catalogue change the world; nothing here can be carried.';
}

function heuristics(robot: Robot): string {
  const i = robot.info;
  const caps = new Set(i.capabilities);
  const h = [
    'Minimise the number of actions; do not repeat an action that succeeded.',
    'Prefer gathering information (the snapshot, perceiving, check_events) when uncertain, before committing to an action.',
    'Resolve the names people use to the identifiers in the snapshot (e.g. "the tomato bed" is poi_1 if that place serves it).',
    'If a request is ambiguous and exploring cannot settle it, ask the person (act speak) rather than guess.',
  ];
  if (i.arm) h.push('Delay placing until you are sure where the object goes; perceive the target surface first.');
  if (caps.has('rover'))
    h.push('Visit points of interest in an order that keeps the route short, and check the battery before leaving for a long round.');
  return bullets(h);
}

function catalogue(robot: Robot): string {
  const acts = actionCatalogue(robot);
  const lines = Object.entries(acts).map(([name, a]) => `act("${name}", ${a.params}): ${a.doc}`);
  return [
    'Tools: reflect (record your plan; changes nothing), act (the only way to change the world), get_semantic_environment_representation_snapshot (the current state), check_events (exogenous events since the last check).',
    'Actions of act, with their positional string parameters:',
    bullets(lines),
  ].join('\n');
}

function exemplars(robot: Robot, facts: PromptFacts): string {
  const i = robot.info;
  const acts = actionCatalogue(robot);
  const place = i.places.find((p) => p.kind === 'poi' || p.kind === 'table') ?? i.places[0];
  const obj = facts.objects.find((o) => o.flags.includes('pickable'));
  const steps: string[] = [
    'reflect({ thought: "<the goal and what I know>", plan: ["…"], next_step: "get the state" })',
    'get_semantic_environment_representation_snapshot()',
  ];
  if (i.places.some((p) => p.kind === 'dock') && acts['undock']) steps.push('act("undock", [])   ← the snapshot said docked(robot)');
  if (place && acts['navigate']) {
    if (i.arm && i.base) steps.push('act("move_arm", ["transport"])');
    steps.push(`act("navigate", ["${place.id}"])`, 'check_events()');
  }
  if (acts['scan']) steps.push(`act("scan", ["${place?.id ?? ''}"])`, 'check_events()');
  if (acts['perceive']) steps.push('act("perceive", [])', 'get_semantic_environment_representation_snapshot()');
  if (acts['pick']) steps.push(`act("pick", ["${obj?.id ?? '<object id from the snapshot>'}"])`, 'check_events()');
  steps.push('reflect({ thought: "<what the results show>", next_step: "…" })', '… until done, then a short plain-text answer.');
  return [
    'A typical task, step by step (one tool call per step):',
    steps.map((s, n) => `${n + 1}. ${s}`).join('\n'),
    'If an action fails, reflect on the reason in its result, fix the cause (e.g. tuck the arm, perceive again, undock) and try once more, or explain why it cannot be done.',
    ...(acts['speak']
      ? ['If the person refers to something you cannot find, explore where it could be, or ask with act("speak", ["<question>"]).']
      : []),
  ].join('\n');
}

function outputFormat(robot: Robot): string {
  return [
    'When the request is done, or cannot be done, reply in plain text without calling a tool: that reply is your final answer.',
    'Say what you actually did and what happened, including failures and their causes; never claim an action you did not take.',
    'End the final answer with one status line: "STATUS: done" (the request is done), "STATUS: refused" (you will not or cannot do it, and did nothing) or "STATUS: failed".',
    ...(robot.has('speech') ? ['Use act("speak", [...]) only for what people near the robot must hear; the final answer is written.'] : []),
  ].join('\n');
}

/** The prompt's sections in §4's order, built for this robot. */
export function plannerPromptSections(
  robot: Robot,
  facts: PromptFacts,
  failureMemory: readonly string[] = DEFAULT_FAILURE_MEMORY,
): PromptSection[] {
  const i = robot.info;
  const sections: PromptSection[] = [
    {
      id: 'role',
      title: 'Role',
      text: `You are the planner and executor of ${i.name} in "${i.scene.title}". You turn a person's request into actions, one at a time, checking the state and events as you go.`,
    },
    { id: 'domain_model', title: 'Domain model', text: domainModel(robot) },
    {
      id: 'state_example',
      title: 'Example of the semantic environment state',
      text: `The snapshot tool returns facts like these (this was the state when the session started; always fetch a fresh one):\n${facts.snapshot.join('\n') || '(no facts yet)'}`,
    },
    { id: 'operational_instructions', title: 'Operational instructions', text: operations(robot) },
    { id: 'affordances', title: 'Object and action affordances', text: affordances(robot, facts) },
    { id: 'heuristics', title: 'Heuristics', text: heuristics(robot) },
    { id: 'action_catalogue', title: 'Action catalogue', text: catalogue(robot) },
    { id: 'exemplars', title: 'Planning and acting example', text: exemplars(robot, facts) },
  ];
  if (failureMemory.length) {
    sections.push({ id: 'failure_memory', title: 'Mistakes made before (do not repeat them)', text: bullets(failureMemory) });
  }
  sections.push({ id: 'output_format', title: 'Output format', text: outputFormat(robot) });
  return sections;
}

export function renderPrompt(sections: readonly PromptSection[]): string {
  return sections.map((s) => (s.id === 'role' ? s.text : `## ${s.title}\n${s.text}`)).join('\n\n');
}
