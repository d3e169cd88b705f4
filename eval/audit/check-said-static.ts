// Tools that speak of the robot itself, its places and its tasks: what it is
// (against the scene's robot configuration), the places it knows and the
// reference positions (against the scene), the date, what the user told it
// (the scene's corpus), and MAYA's task lists (against what it sees and
// holds). Poses of objects and reference points are the robot's belief, in
// its base frame.
import { type Judge, type Rule, readEach, readOne } from './check-read';
import { ID, NUM, THING, believedBox, believedPosition, exists, holds, inBaseFrame, samePoint, stateIs, visibleNow } from './check-judge';
import { readNameFailure } from './check-said-names';
import { batteryLevel } from './check-said-farm';
import { reachReason } from './check-said-parts';
import { items } from './check-said-queries';
import { recognisedName } from './check-said-people';
import { type V, vec } from './truth';

/** The capabilities a simulated robot declares, from its configuration. */
function capabilities(j: Judge): string[] {
  const cfg = j.c.world.scene.robot;
  // Every robot configuration has a camera (the schema requires one): its picture is a capability.
  const caps = ['perception', 'speech', 'battery', 'events', 'world_model', 'camera'];
  if (cfg.arm) caps.push('arm');
  if (cfg.kind !== 'fixed_arm') caps.push('base');
  if (cfg.kind === 'rover') caps.push('rover');
  if (cfg.kind !== 'fixed_arm') caps.push('people');
  if (j.c.world.scene.scene.perception.partialObservability) caps.push('partial_observability');
  return caps;
}

const r2 = (x: number): string => x.toFixed(2);

/** describe_yourself, line by line, as the configuration says the robot is. */
function describeSaid(j: Judge, text: string): void {
  const cfg = j.c.world.scene.robot;
  const want: string[] = [`I am ${cfg.title} (${cfg.kind.replace('_', ' ')}). ${cfg.description}`];
  if (cfg.arm)
    want.push(
      `Arm: reaches ${r2(cfg.arm.upperArm + cfg.arm.forearm + cfg.arm.hand)} m, lifts up to ${cfg.arm.payloadKg} kg, gripper opens ${Math.round(cfg.arm.gripperMaxOpening * 100)} cm; postures: ${Object.keys(cfg.arm.postures).join(', ')}.`,
    );
  if (cfg.kind !== 'fixed_arm') want.push(`Base: ${cfg.base.size[0]} × ${cfg.base.size[2]} m footprint, up to ${cfg.base.maxSpeed} m/s.`);
  const places = j.c.world.scene.scene.locations.map((l) => l.id);
  if (places.length) want.push(`Places I know: ${places.join(', ')}.`);
  want.push(`Capabilities: ${capabilities(j).join(', ')}.`);
  const lines = text.split('\n');
  lines.forEach((l, i) => {
    if (l !== want[i])
      j.lie(`described itself as "${l.slice(0, 120)}", but its configuration says "${(want[i] ?? '(nothing)').slice(0, 120)}"`);
  });
  if (lines.length < want.length) j.lie(`left "${want[lines.length]!.slice(0, 80)}" out of its description`);
}

function safetySaid(j: Judge, text: string): void {
  const cfg = j.c.world.scene.robot;
  const t = j.c.world.scene.scene.robot.battery;
  const want = [
    'An emergency stop halts every motion at once; the robot waits until it is released.',
    "Every physical action can be stopped mid-motion, and actions can be set to need a person's approval first.",
    'Tasks are offered only when the robot sees what they act on, and one task runs at a time.',
  ];
  if (cfg.arm)
    want.push(
      `The arm lifts at most ${cfg.arm.payloadKg} kg and reaches ${r2(cfg.arm.upperArm + cfg.arm.forearm + cfg.arm.hand)} m; heavier or farther things are refused, not attempted blindly.`,
    );
  if (cfg.kind !== 'fixed_arm' && !cfg.base.autoTuck) want.push('The base refuses to drive while the arm sticks out of its footprint.');
  want.push(`The battery reports low below ${t.low}% and critical below ${t.critical}%.`);
  const lines = text.split('\n');
  if (lines.join('\n') !== want.join('\n'))
    j.lie(`explained its safety as "${text.slice(0, 160)}", but its configuration says "${want.join(' ').slice(0, 160)}"`);
}

/** One of MAYA's task names and its description, against what the robot sees and holds now. */
function taskSaid(j: Judge, name: string, description: string | undefined): void {
  const w = j.c.world;
  const dn = (id: string): string => w.entities.get(id)?.spec.name ?? id;
  const check = (want: string): void => {
    if (description !== undefined && description !== want) j.lie(`described ${name} as "${description}", but it is "${want}"`);
  };
  let m = new RegExp(`^(open|close|switch_on|switch_off|slice|pick)_(${ID})$`).exec(name);
  if (m) {
    const [verb, id] = [m[1]!, m[2]!];
    if (!exists(j, id)) return;
    visibleNow(j, id, `${id} offers a task`);
    const e = w.entities.get(id)!;
    if (verb === 'open') stateIs(j, id, 'open', false, `${name} is offered`);
    if (verb === 'close') stateIs(j, id, 'open', true, `${name} is offered`);
    if (verb === 'switch_on') stateIs(j, id, 'on', false, `${name} is offered`);
    if (verb === 'switch_off') stateIs(j, id, 'on', true, `${name} is offered`);
    if (verb === 'pick') {
      if (j.c.after.held) j.lie(`offered ${name}, but the hand holds ${j.c.after.held}`);
      if (!e.spec.properties.pickable || e.fixed) j.lie(`offered ${name}, but ${id} cannot be picked`);
    }
    if (verb === 'slice' && !/knife/.test(j.c.after.held ?? '')) j.lie(`offered ${name}, but the hand holds no knife`);
    const words: Record<string, string> = {
      open: 'Open',
      close: 'Close',
      switch_on: 'Switch on',
      switch_off: 'Switch off',
      pick: 'Pick up',
      slice: 'Slice',
    };
    check(`${words[verb]} ${dn(id)} (${id})${verb === 'slice' ? ' with the knife in the hand' : ''}.`);
    return;
  }
  m = new RegExp(`^put_(${ID})_(in|on)_(${ID})$`).exec(name);
  if (m) {
    // Held object ids contain underscores: find the split where the held object is the one in the hand.
    const held = j.c.after.held;
    const rest = held && name.startsWith(`put_${held}_`) ? /^(in|on)_(.+)$/.exec(name.slice(`put_${held}_`.length)) : null;
    if (!held || !rest) return void j.lie(`offered ${name}, but the hand holds ${held ?? 'nothing'}`);
    const [rel, id] = [rest[1]!, rest[2]!];
    if (!exists(j, id)) return;
    visibleNow(j, id, `${id} offers a task`);
    const receptacle = Boolean(w.entities.get(id)!.spec.receptacle);
    if ((rel === 'in') !== receptacle) j.lie(`offered ${name}, but ${id} is ${receptacle ? '' : 'not '}a container`);
    check(`Put ${held} ${rel === 'in' ? 'into' : 'on'} ${dn(id)} (${id}).`);
    return;
  }
  m = /^hand_(.+)_to_([a-z][a-z0-9_]*)$/.exec(name);
  if (m && w.people.has(m[2]!)) {
    holds(j, m[1], name);
    recognisedName(j, m[2]!);
    check(`Hand ${m[1]} to ${m[2]}.`);
    return;
  }
  m = /^go_to_(.+)$/.exec(name);
  if (m && w.locations.has(m[1]!)) {
    if (w.scene.robot.kind === 'fixed_arm') j.lie(`offered ${name}, but the robot cannot drive`);
    const l = w.locations.get(m[1]!)!;
    check(`Drive to ${l.title ?? l.id}.`);
    return;
  }
  j.unread(name);
}

/** Why a seen object offers no task. */
function noTaskSaid(j: Judge, id: string, why: string): void {
  const w = j.c.world;
  if (!exists(j, id)) return;
  visibleNow(j, id, `${id} is seen`);
  const e = w.entities.get(id)!;
  const p = e.spec.properties;
  let m = /^the hand already holds (\S+)$/.exec(why);
  if (m) return void holds(j, m[1], why);
  m = /^it has (.+) inside$/.exec(why);
  if (m) return;
  if (why === 'slicing needs a knife in the hand')
    return void (/knife/.test(j.c.after.held ?? '') && j.lie(`said slicing ${id} needs a knife, but the hand holds ${j.c.after.held}`));
  if (why === 'it is not something the robot can pick, open or switch') {
    if (p.openable || p.toggleable) j.lie(`said ${id} cannot be opened or switched, but it can`);
    return;
  }
  j.unread(why);
}

/** A reference point (named by the scene, or relative to an object the robot knows), in the world. */
function referencePoint(j: Judge, label: string): V | undefined {
  const ref = j.c.world.scene.scene.referencePositions.find((r) => r.id === label);
  if (ref) return vec(...ref.position);
  const m = new RegExp(`^(left|right|in front of|behind) (${ID})$`).exec(label);
  if (!m) return undefined;
  const box = believedBox(j, m[2]!);
  if (!box) return undefined;
  const c = vec((box.min.x + box.max.x) / 2, box.min.y, (box.min.z + box.max.z) / 2);
  const b = j.c.after.base;
  const left = vec(-Math.sin(b.yaw), 0, -Math.cos(b.yaw));
  const t = vec(b.pos.x - c.x, 0, b.pos.z - c.z);
  const n = Math.hypot(t.x, t.z) || 1;
  const toRobot = vec(t.x / n, 0, t.z / n);
  const dir =
    m[1] === 'left'
      ? left
      : m[1] === 'right'
        ? vec(-left.x, 0, -left.z)
        : m[1] === 'in front of'
          ? toRobot
          : vec(-toRobot.x, 0, -toRobot.z);
  const half = (Math.abs(dir.x) * (box.max.x - box.min.x)) / 2 + (Math.abs(dir.z) * (box.max.z - box.min.z)) / 2;
  return vec(c.x + dir.x * (half + 0.08), c.y, c.z + dir.z * (half + 0.08));
}

const POSITION = `\\{"x":(${NUM}),"y":(${NUM}),"z":(${NUM})\\}`;

export const STATIC_RULES: Record<string, readonly Rule[]> = {
  describe_yourself: [[/[^]*/, (m, j) => describeSaid(j, m[0]!)]],
  explain_safety_features: [[/[^]*/, (m, j) => safetySaid(j, m[0]!)]],
  get_today_date: [
    [
      /(\d{4}-\d\d-\d\d)/,
      (m, j) => {
        const days = [-1, 0, 1].map((d) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10));
        if (!days.includes(m[1]!)) j.lie(`gave today's date as ${m[1]}`);
      },
    ],
  ],
  get_available_locations: [
    [
      /[^]*/,
      (m, j) => {
        const ls = j.c.world.scene.scene.locations;
        const want = ls.map((l) => `${l.id} (${l.kind})`).join(', ') || 'No named locations.';
        if (m[0] !== want) j.lie(`listed the places as "${m[0]!.slice(0, 120)}", but they are "${want.slice(0, 120)}"`);
      },
    ],
  ],
  get_reference_names: [
    [
      /Reference positions: ([^]*)\. Relative to any object: "left of <object>", "right of <object>", "in front of <object>", "behind <object>"\./,
      (m, j) => {
        const refs = j.c.world.scene.scene.referencePositions;
        const want = refs.length ? refs.map((r) => `${r.id}${r.description ? `: ${r.description}` : ''}`).join(', ') : 'none';
        if (m[1] !== want) j.lie(`listed the reference positions as "${m[1]!.slice(0, 120)}", but they are "${want.slice(0, 120)}"`);
      },
    ],
  ],
  retrieve_user_information: [
    [
      /No stored information about the user matches that query\./,
      (_m, j) => {
        const q = contentWords(String(j.c.args['query'] ?? ''));
        const hit = j.c.world.scene.scene.userInfo.find((e) => [...contentWords(e)].some((w) => q.has(w)));
        if (hit) j.lie(`found nothing about "${String(j.c.args['query'])}", but the user's record says "${hit}"`);
      },
    ],
    [/[^]+/, (m, j) => void (j.c.world.scene.scene.userInfo.includes(m[0]!) || j.lie(`told "${m[0]}", which is not in the user's record`))],
  ],
  reflect: [[/Reflection recorded\./, () => {}]],
  get_pose: [
    [
      new RegExp(`Pose of (${ID}|(?:left|right|in front of|behind) ${ID}) \\(base frame\\): \\{"position":${POSITION}\\}\\.`),
      (m, j) => {
        const label = m[1]!;
        const said = vec(Number(m[2]), Number(m[3]), Number(m[4]));
        const ref = referencePoint(j, label);
        const at = ref ?? (j.c.world.entities.has(label) ? believedPosition(j, label) : undefined);
        if (!at) return void j.skip(`a pose of ${label}, which the robot has no record of`);
        samePoint(j, said, inBaseFrame(j, at), 0.02, label);
      },
    ],
  ],
  compute_grasp: [
    [
      new RegExp(`Grasp pose for (${ID}) \\(base frame\\): \\{"position":${POSITION},"tilt_deg":(\\d+)\\}\\.`),
      (m, j) => {
        if (!exists(j, m[1]!)) return;
        const box = believedBox(j, m[1]!);
        if (!box) return void j.skip(`a grasp of ${m[1]}, which the robot has no record of`);
        // Where the fingers close: within the object's box as the robot saw it (a finger's width around it).
        const c = inBaseFrame(j, vec((box.min.x + box.max.x) / 2, (box.min.y + box.max.y) / 2, (box.min.z + box.max.z) / 2));
        const half = Math.max(box.max.x - box.min.x, box.max.y - box.min.y, box.max.z - box.min.z) / 2 + 0.06;
        const p = vec(Number(m[2]), Number(m[3]), Number(m[4]));
        const off = Math.max(Math.abs(p.x - c.x), Math.abs(p.y - c.y), Math.abs(p.z - c.z));
        if (off > half)
          j.lie(`gave a grasp for ${m[1]} at (x ${p.x}, y ${p.y}, z ${p.z}), ${off.toFixed(2)} m from where the robot saw it`);
        if (Number(m[5]) > 90) j.lie(`gave a grasp tilted ${m[5]}°, beyond horizontal`);
      },
    ],
  ],
  what_do_you_see: [
    [
      /I see no objects from here\.|I see:\n([^]+)/,
      (m, j) => {
        const ids: string[] = [];
        for (const line of m[1]?.split('\n') ?? []) {
          const l = new RegExp(`^- ${THING}, (${NUM}) m away((?:, (?:not )?\\w+)*)$`).exec(line);
          if (!l) {
            j.unread(line);
            continue;
          }
          if (!exists(j, l[1]!, l[2])) continue;
          ids.push(l[1]!);
          for (const s of l[4]!.split(', ').filter(Boolean)) {
            const neg = s.startsWith('not ');
            stateIs(j, l[1]!, neg ? s.slice(4) : s, !neg, `${l[1]} is ${s}`);
          }
        }
        for (const id of ids) visibleNow(j, id, `${id} is seen`);
      },
    ],
  ],
  list_available_tasks: [
    [
      /No tasks are available right now\. Ask why_no_objects_or_tasks for the reasons\.|Tasks available now:\n([^]+)/,
      (m, j) => {
        for (const line of m[1]?.split('\n') ?? []) {
          const l = /^- (\S+): (.+)$/.exec(line);
          if (!l) j.unread(line);
          else taskSaid(j, l[1]!, l[2]);
        }
      },
    ],
  ],
  why_no_objects_or_tasks: [[/[^]+/, (m, j) => readEach(j, m[0]!.split('\n'), WHY)]],
  get_semantic_environment_representation_snapshot: [],
};

function contentWords(s: string): Set<string> {
  return new Set(
    s
      .toLowerCase()
      .split(/[^a-z0-9']+/)
      .filter((w) => w.length > 2)
      .map((w) => w.replace(/(s|es)$/, '')),
  );
}

const WHY: readonly Rule[] = [
  [
    /This robot has no arm, so it offers no manipulation tasks\./,
    (_m, j) => void (j.c.world.scene.robot.arm && j.lie('said it has no arm, but it has one')),
  ],
  [
    /The camera sees no objects from here: nothing is in view, in range and unoccluded\.(?: Drive to a place that serves a table or counter, or look again\.)?/,
    (_m, j) => {
      for (const r of j.c.world.belief.objects.values())
        if (r.how === 'seen' && r.time >= j.c.before.time - 1e-9)
          j.lie(`said it sees no objects, but it recorded seeing ${r.id} in this call`);
    },
  ],
  [new RegExp(`The hand holds (${ID}): picking anything else needs it put down first\\.`), (m, j) => holds(j, m[1], m[0]!)],
  [new RegExp(`(${ID}): no task, because (.+)\\.`), (m, j) => noTaskSaid(j, m[1]!, m[2]!)],
  [
    new RegExp(`The battery is (critical|empty) \\((${NUM})%\\)\\.`),
    (m, j) => {
      if (Math.abs(Number(m[2]) - j.c.after.batteryPercent) > 0.5)
        j.lie(`said the battery is at ${m[2]}%, but it is at ${j.c.after.batteryPercent.toFixed(2)}%`);
      batteryLevel(j, m[1]!, Number(m[2]));
    },
  ],
  [
    /Every object in view offers a task: (.+)\./,
    (m, j) => {
      for (const t of items(m[1]!)) taskSaid(j, t, undefined);
    },
  ],
];

/** Other failures of these tools: a pose not found, a grasp not possible, a parameter the action needs. */
export const STATIC_FAILURES: readonly Rule[] = [
  [
    /(\w+) is not available: this robot has no (.+) capability\./,
    (m, j) => {
      for (const cap of m[2]!.split(', ')) if (capabilities(j).includes(cap)) j.lie(`said the robot has no ${cap}, but it has`);
    },
  ],
  [
    /(.+) Reference positions: (.*)\./,
    (m, j) => {
      if (!readNameFailure(j, m[1]!)) j.unread(m[1]!);
      const want = j.c.world.scene.scene.referencePositions.map((r) => r.id).join(', ');
      if (m[2] !== want) j.lie(`listed the reference positions as "${m[2]}", but they are "${want}"`);
    },
  ],
  [/no pose for (.+)/, () => {}],
  [
    new RegExp(`cannot grasp ${THING}: ${THING} is (${NUM}) cm across where the fingers would close; the gripper opens (${NUM}) cm`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      if (!(Number(m[5]) > Number(m[6]) - 0.5)) j.message(`too big, yet narrower than the opening: "${m[0]}"`);
    },
  ],
  [
    new RegExp(`cannot grasp ${THING}: (.+)`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      reachReason(j, m[3]!);
    },
  ],
  [
    /act (\w+) expects (\[[^\]]*\])(, a number)?; got (\[.*\])/,
    (m, j) => {
      const got = JSON.stringify(j.c.args['params'] ?? []);
      if (m[4] !== got) j.lie(`quoted the parameters as ${m[4]}, but they were ${got}`);
    },
  ],
  [new RegExp(`the robot is (?:holding (${ID})|not holding anything), not (\\S+)`), (m, j) => holds(j, m[1], m[0]!)],
  [
    new RegExp(`(${ID}) is the charging dock: it is reached only by docking\\. Navigate to (${ID}|the shelter entry), then call dock\\.`),
    (m, j) => {
      if (j.c.world.locations.get(m[1]!)?.kind !== 'dock') j.lie(`said ${m[1]} is the charging dock, but it is not`);
    },
  ],
  [/no tool "([^"]+)" is offered now/, (m, j) => void (j.c.set !== 'rtw-hierarchical' && j.lie(`said ${m[1]} is not offered`))],
  [
    new RegExp(`the world model has no position for (${ID})`),
    (m, j) => void (j.c.added.has(m[1]!) || j.lie(`said the world model has no position for ${m[1]}, but it is no operator's node`)),
  ],
];

export function readStatic(j: Judge, text: string): boolean {
  const rules = STATIC_RULES[j.c.tool];
  if (!rules?.length) return false;
  readOne(j, text, rules);
  return true;
}
