// The DFKI missions (paper 003 §6): the Mobipick workshop (Experiments 1–4) and
// the Valdemar farm (5–7), each as the person's instruction, the reference plan
// of act() calls, the goal on the final world, and the exogenous event it meets
// (an e-stop during a skill, a person stating a preference, a battery that runs
// low, an object a person moves). When an event happens is not typed here: the generator plays the plan
// in the world and schedules it during the chosen step.

export interface DfkiStep {
  action: string;
  params: string[];
  /** After an e-stop interrupts this step: do it again once released (default), or drop it (the person changed their mind). */
  onEstop?: 'retry' | 'abandon';
}

export type DfkiGoal =
  | { kind: 'fact'; fact: string }
  | { kind: 'holding'; object: string }
  | { kind: 'scanned'; poi: string }
  | { kind: 'docked' }
  /**
   * Exp. 7: an impossible command is refused — nothing done but talk, and the
   * person told what cannot be done: something said (spoken or the answer) names
   * one of `about`. Silence or a bare "Done." is no refusal.
   */
  | { kind: 'refused'; about: string[] };

export type DfkiEvent =
  | { kind: 'none' }
  /** The e-stop is pressed during step `during` (a share of the way into it) and released `releaseAfter` s later. */
  | { kind: 'estop'; during: number; into: number; releaseAfter: number; say?: string }
  /** The battery starts just above "low" so it crosses during step `during`, draining fast enough that the mission needs a recharge. */
  | { kind: 'battery'; during: number }
  /**
   * A person moves `object` during step `during` (a share `into` of the way) onto
   * table `table`, at `at` (x, z) — the height is where the object rests now. The
   * robot finds it gone, has to look for it there, and go on.
   */
  | { kind: 'moved'; during: number; into: number; object: string; table: string; at: [number, number] };

export interface Mission {
  id: string;
  experiment: 'nominal' | 'ambiguity' | 'constraint' | 'long-horizon' | 'farm-scan' | 'farm-battery' | 'refusal';
  scene: 'tabletop/workshop' | 'farm';
  instruction: string;
  /** Scene edits before the world is built (Exp. 3 puts the multimeter into the box). */
  setupEdits?: Array<{ kind: 'place'; object: string; into: string }>;
  plan: DfkiStep[];
  goal: DfkiGoal[];
  event: DfkiEvent;
}

const a = (action: string, ...params: string[]): DfkiStep => ({ action, params });
/** Mobipick drives only with the arm tucked (the scene's rule): transport posture, then drive. */
const go = (place: string): DfkiStep[] => [a('move_arm', 'transport'), a('navigate', place)];

/** Mobipick, Exp. 1: the multimeter into the box, the box to table 2 — perceiving table 2 before carrying the loaded box there. */
const EXP1: DfkiStep[] = [
  a('perceive'),
  ...go('table_1'),
  a('perceive'),
  a('pick', 'multimeter_1'),
  ...go('table_3'),
  a('perceive'),
  a('insert', 'multimeter_1', 'klt_1'),
  a('pick', 'klt_1'),
  ...go('table_2'),
  a('place', 'table_2'),
];

const EXP3: DfkiStep[] = [a('perceive'), ...go('table_3'), a('perceive'), a('pick', 'klt_1'), ...go('table_2'), a('place', 'table_2')];

const scanRound = (pois: string[]): DfkiStep[] => [
  a('undock'),
  ...pois.flatMap((p) => [a('navigate', p), a('scan', p)]),
  a('navigate', 'shelter_entry'),
  a('dock'),
];

export const MISSIONS: Mission[] = [
  {
    id: 'workshop/exp1',
    experiment: 'nominal',
    scene: 'tabletop/workshop',
    instruction: 'Put the multimeter inside the box and bring it to table 2.',
    plan: EXP1,
    goal: [
      { kind: 'fact', fact: 'in(multimeter_1, klt_1)' },
      { kind: 'fact', fact: 'on(klt_1, table_2)' },
    ],
    event: { kind: 'none' },
  },
  {
    id: 'workshop/exp1-estop',
    experiment: 'nominal',
    scene: 'tabletop/workshop',
    instruction: 'Put the multimeter inside the box and bring it to table 2.',
    plan: EXP1,
    goal: [
      { kind: 'fact', fact: 'in(multimeter_1, klt_1)' },
      { kind: 'fact', fact: 'on(klt_1, table_2)' },
    ],
    event: { kind: 'estop', during: 4, into: 0.15, releaseAfter: 20 },
  },
  {
    id: 'workshop/exp2',
    experiment: 'ambiguity',
    scene: 'tabletop/workshop',
    instruction: 'Pick any tool I can use to screw with.',
    plan: [...go('table_1'), a('perceive'), { ...a('pick', 'screwdriver_1'), onEstop: 'abandon' }, a('pick', 'power_drill_1')],
    goal: [{ kind: 'holding', object: 'power_drill_1' }],
    event: { kind: 'estop', during: 3, into: 0.15, releaseAfter: 20, say: 'Please take the power drill instead, I prefer it.' },
  },
  {
    id: 'workshop/exp3',
    experiment: 'constraint',
    scene: 'tabletop/workshop',
    instruction: 'Go to table 3 and take the box from there to table 2.',
    setupEdits: [{ kind: 'place', object: 'multimeter_1', into: 'klt_1' }],
    plan: EXP3,
    goal: [
      { kind: 'fact', fact: 'on(klt_1, table_2)' },
      { kind: 'fact', fact: 'in(multimeter_1, klt_1)' },
    ],
    event: { kind: 'none' },
  },
  {
    id: 'workshop/exp3-estop',
    experiment: 'constraint',
    scene: 'tabletop/workshop',
    instruction: 'Go to table 3 and take the box from there to table 2.',
    setupEdits: [{ kind: 'place', object: 'multimeter_1', into: 'klt_1' }],
    plan: EXP3,
    goal: [
      { kind: 'fact', fact: 'on(klt_1, table_2)' },
      { kind: 'fact', fact: 'in(multimeter_1, klt_1)' },
    ],
    event: { kind: 'estop', during: 2, into: 0.4, releaseAfter: 15 },
  },
  {
    id: 'workshop/exp4',
    experiment: 'long-horizon',
    scene: 'tabletop/workshop',
    instruction: 'Transport the screwdriver, the multimeter and the relay to table 2.',
    plan: [
      a('perceive'),
      ...go('table_1'),
      a('perceive'),
      a('pick', 'screwdriver_1'),
      ...go('table_2'),
      a('place', 'table_2'),
      ...go('table_1'),
      a('perceive'),
      a('pick', 'multimeter_1'),
      ...go('table_2'),
      a('place', 'table_2'),
      ...go('table_3'),
      a('perceive'),
      a('pick', 'relay_1'),
      ...go('table_2'),
      a('place', 'table_2'),
    ],
    goal: [
      { kind: 'fact', fact: 'on(screwdriver_1, table_2)' },
      { kind: 'fact', fact: 'on(multimeter_1, table_2)' },
      { kind: 'fact', fact: 'on(relay_1, table_2)' },
    ],
    event: { kind: 'none' },
  },
  {
    // Exp. 4's kind of transport, with the paper's "object moved" disturbance: while the
    // robot drives to table 3, a person carries the relay over to table 1.
    id: 'workshop/exp4-moved',
    experiment: 'long-horizon',
    scene: 'tabletop/workshop',
    instruction: 'Bring the relay to table 2.',
    // It starts at table 2 and looks at it first, so it may put the relay there on its return.
    plan: [a('perceive'), ...go('table_3'), a('perceive'), a('pick', 'relay_1'), ...go('table_2'), a('place', 'table_2')],
    goal: [{ kind: 'fact', fact: 'on(relay_1, table_2)' }],
    event: { kind: 'moved', during: 2, into: 0.5, object: 'relay_1', table: 'table_1', at: [2.1, -1.15] },
  },
  {
    id: 'farm/exp5',
    experiment: 'farm-scan',
    scene: 'farm',
    instruction: 'Scan poi_1, poi_2, poi_3, poi_4 and poi_5, then return to the dock.',
    plan: scanRound(['poi_1', 'poi_2', 'poi_3', 'poi_4', 'poi_5']),
    goal: [...['poi_1', 'poi_2', 'poi_3', 'poi_4', 'poi_5'].map((poi) => ({ kind: 'scanned' as const, poi })), { kind: 'docked' }],
    event: { kind: 'none' },
  },
  {
    id: 'farm/exp5-estop',
    experiment: 'farm-scan',
    scene: 'farm',
    instruction: 'Scan poi_1, poi_2 and poi_3, then return to the dock.',
    plan: scanRound(['poi_1', 'poi_2', 'poi_3']),
    goal: [...['poi_1', 'poi_2', 'poi_3'].map((poi) => ({ kind: 'scanned' as const, poi })), { kind: 'docked' }],
    event: { kind: 'estop', during: 3, into: 0.3, releaseAfter: 30 },
  },
  {
    id: 'farm/exp6',
    experiment: 'farm-battery',
    scene: 'farm',
    instruction: 'Scan poi_1, poi_2 and poi_3, then return to the dock.',
    plan: scanRound(['poi_1', 'poi_2', 'poi_3']),
    goal: [...['poi_1', 'poi_2', 'poi_3'].map((poi) => ({ kind: 'scanned' as const, poi })), { kind: 'docked' }],
    event: { kind: 'battery', during: 3 },
  },
  {
    id: 'farm/exp7',
    experiment: 'refusal',
    scene: 'farm',
    instruction: 'Fly to Paris.',
    plan: [a('speak', "I can't fly, and Paris is far outside my operation area.")],
    goal: [{ kind: 'refused', about: ['fly', 'paris'] }],
    event: { kind: 'none' },
  },
];
