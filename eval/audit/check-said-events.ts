// Events and the semantic snapshot. check_events tells what happened since it
// was last asked, each at its time and attributed to who did it: the audit
// holds every line to an event that really happened (the queue the world
// posts to, written as events are injected), with the right actor, and every
// event since the last check to a line. The snapshot's facts are the robot's
// own state (physics: it knows itself), the states of things, where it
// believes each object is, and people where it saw them.
import { type Judge, type Rule, readEach } from './check-read';
import { ID, NUM, exists, recordOf, stateIs } from './check-judge';
import { PERCENT_SAID, batteryLevel } from './check-said-farm';
import { recognisedName } from './check-said-people';
import { checkFacts } from './check-facts';

type QueueEvent = ReturnType<Judge['c']['world']['events']['all']>[number];

/** The events check_events should report: posted after the last one it reported. */
function unread(j: Judge): QueueEvent[] {
  return j.c.world.events.since(j.c.eventsRead);
}

/** Who the line says did it, against who did: "a person" for anyone the robot does not recognise. */
function actor(j: Judge, said: string, by: string | undefined, what: string): void {
  const person = by ? (j.c.world.people.get(by) ?? [...j.c.world.people.values()].find((p) => p.spec.name === by)) : undefined;
  if (said === 'a person') {
    if (by && !person && by !== 'a person') j.lie(`said a person ${what}, but ${by} did`);
    return;
  }
  if (!person || (said !== person.spec.id && said !== person.spec.name))
    return void j.lie(`said ${said} ${what}, but ${by ?? 'an unnamed person'} did`);
  recognisedName(j, person.spec.id);
}

function eventLine(j: Judge, line: string, used: Set<number>): void {
  const m = new RegExp(`^t=(${NUM})s (.+)$`).exec(line);
  if (!m) return void j.unread(line);
  const t = Number(m[1]);
  const body = m[2]!;
  const at = unread(j).filter((e) => Math.abs(e.time - t) <= 0.051 && !used.has(e.id));
  const find = (pred: (e: QueueEvent) => boolean): QueueEvent | undefined => at.find(pred);
  let e: QueueEvent | undefined;
  let r: RegExpExecArray | null;
  if (body === 'emergency stop pressed: the robot cannot move until it is released') e = find((x) => x.type === 'estop_pressed');
  else if (body === 'emergency stop released') e = find((x) => x.type === 'estop_released');
  else if (body === 'docked at the charging station') e = find((x) => x.type === 'docked');
  else if (body === 'undocked') e = find((x) => x.type === 'undocked');
  else if ((r = /^(.+?) said: "([^]*)"$/.exec(body))) {
    const text = r[2];
    e = find((x) => x.type === 'person_said' && x.text === text);
    if (e && e.type === 'person_said') actor(j, r[1]!, e.person, `said "${text}"`);
  } else if ((r = new RegExp(`^battery is (okay|low|critical|empty) \\((\\d+)%\\)$`).exec(body))) {
    const [level, pct] = [r[1]!, Number(r[2])];
    e = find((x) => x.type === 'battery_threshold' && x.level === level);
    if (e && e.type === 'battery_threshold') {
      if (Math.abs(e.percent - pct) > PERCENT_SAID) j.lie(`said the battery is at ${pct}%, but it was at ${e.percent.toFixed(1)}%`);
      batteryLevel(j, level, e.percent);
    }
  } else if ((r = new RegExp(`^(.+?) moved (${ID})$`).exec(body))) {
    const [who, obj] = [r[1]!, r[2]!];
    e = find((x) => x.type === 'object_moved' && x.object === obj);
    if (e && e.type === 'object_moved') actor(j, who, e.by, `moved ${obj}`);
    exists(j, obj);
  } else if ((r = new RegExp(`^(${ID}) dropped: (.+)$`).exec(body))) {
    const obj = r[1]!;
    e = find((x) => x.type === 'object_dropped' && x.object === obj && x.reason === r![2]);
  } else if ((r = new RegExp(`^(${ID}): (.+)$`).exec(body))) {
    const obj = r[1]!;
    e = find((x) => x.type === 'physics_fault' && x.object === obj && x.reason === r![2]);
  } else return void j.unread(line);
  if (!e) return void j.lie(`reported "${line}", but no such event happened then (since the last check)`);
  used.add(e.id);
}

export const EVENT_RULES: readonly Rule[] = [
  [
    /No events\./,
    (_m, j) => {
      const missed = unread(j);
      if (missed.length)
        j.lie(`said there were no events, but ${missed.length} happened since the last check (the first: ${missed[0]!.type})`);
    },
  ],
  [
    /t=[^]+/,
    (m, j) => {
      const used = new Set<number>();
      for (const line of m[0]!.split('\n')) eventLine(j, line, used);
      for (const e of unread(j)) if (!used.has(e.id)) j.lie(`left out an event since the last check: ${e.type} at t=${e.time.toFixed(1)}s`);
    },
  ],
];

const STATE_FACTS: Record<string, [string, boolean]> = {
  open: ['open', true],
  closed: ['open', false],
  switched_on: ['on', true],
  switched_off: ['on', false],
  sliced: ['sliced', true],
  dirty: ['dirty', true],
  clean: ['dirty', false],
  filled: ['filled', true],
  empty: ['filled', false],
  cooked: ['cooked', true],
};

/** Facts the snapshot's fact checks (check-facts.ts) judge: the robot's own and where objects are. */
const JUDGED_ELSEWHERE = /^(robot_at|robot_has_arm_posture|holding|hand_empty|estop_pressed|docked|on|in|moving)\(/;

const FACT_RULES: readonly Rule[] = [
  [
    /(?:robot_at|robot_has_arm_posture|holding)\(robot, [a-z0-9_]+\)|hand_empty\(robot\)|estop_pressed\(robot\)|docked\(robot\)|(?:on|in)\([a-z0-9_]+, [a-z0-9_]+\)|moving\([a-z0-9_]+\)/,
    () => {},
  ],
  [/battery\(robot, (okay|low|critical|empty)\)/, (m, j) => batteryLevel(j, m[1]!, j.c.before.batteryPercent, j.c.after.batteryPercent)],
  [
    /battery_percent\(robot, (\d+)\)/,
    (m, j) => {
      const [a, b] = [j.c.before.batteryPercent, j.c.after.batteryPercent];
      if (Number(m[1]) < Math.min(a, b) - PERCENT_SAID || Number(m[1]) > Math.max(a, b) + PERCENT_SAID)
        j.lie(`reported battery_percent ${m[1]}, but the battery was at ${Math.min(a, b).toFixed(2)}–${Math.max(a, b).toFixed(2)}%`);
    },
  ],
  [
    new RegExp(`stale\\((${ID})\\)`),
    (m, j) => {
      const r = recordOf(j, m[1]!);
      if (!r || r.how !== 'seen' || r.baseMoves === j.c.world.body.baseMoves || !j.c.world.scene.scene.perception.partialObservability)
        j.lie(`reported ${m[0]}, but its record ${r ? 'is not from before the base last moved' : 'does not exist'}`);
    },
  ],
  [
    new RegExp(`(open|closed|switched_on|switched_off|sliced|dirty|clean|filled|empty|cooked)\\((${ID})\\)`),
    (m, j) => {
      const [key, value] = STATE_FACTS[m[1]!]!;
      if (exists(j, m[2]!)) stateIs(j, m[2]!, key, value, m[0]!, 'belief');
    },
  ],
  [
    new RegExp(`held_by\\((${ID}), (${ID})\\)`),
    (m, j) => {
      const r = recordOf(j, m[1]!)?.place;
      if (!(r?.kind === 'handed' && r.person === m[2])) j.lie(`reported ${m[0]}, but the robot records ${JSON.stringify(r ?? 'nothing')}`);
      if (j.c.world.handedOver.get(m[1]!) !== m[2]) j.lie(`reported ${m[0]}, but ${m[2]} does not have it`);
    },
  ],
  [
    new RegExp(`person_at\\((${ID}), (${ID})\\)`),
    (m, j) => {
      const seen = j.c.world.belief.people.get(m[1]!);
      const l = j.c.world.locations.get(m[2]!);
      recognisedName(j, m[1]!);
      if (!seen || !l) return void j.lie(`reported ${m[0]}, of someone the robot has not seen or a place that does not exist`);
      const d = Math.hypot(seen.position.x - l.pose.position[0], seen.position.z - l.pose.position[2]);
      if (d > 1.01) j.lie(`reported ${m[0]}, but the robot saw ${m[1]} ${d.toFixed(2)} m from ${m[2]}`);
    },
  ],
  [
    new RegExp(`person_near\\((${ID}), (${ID})\\)`),
    (m, j) => {
      recognisedName(j, m[1]!);
      if (!j.c.world.belief.people.get(m[1]!)) j.lie(`reported ${m[0]}, of someone the robot has not seen`);
      exists(j, m[2]!);
    },
  ],
];

/** A snapshot: every fact one the audit can read and judge, and nothing the belief holds left out. */
export function readSnapshot(j: Judge, text: string): void {
  const lines = text.split('\n').filter(Boolean);
  readEach(j, lines, FACT_RULES);
  for (const f of checkFacts(j.c, text)) j.add(f);
  const facts = new Set(lines);
  for (const r of j.c.world.belief.objects.values()) {
    if (r.place.kind === 'held' || j.c.after.held === r.id) continue;
    const has = lines.some((l) => new RegExp(`^(?:on|in)\\(${r.id}, |^moving\\(${r.id}\\)$|^held_by\\(${r.id}, `).test(l));
    if (!has) j.lie(`left out where the robot believes ${r.id} is (${JSON.stringify(r.place)})`);
  }
  if (![...facts].some((f) => f.startsWith('battery('))) j.lie('left the battery level out of the snapshot');
  void JUDGED_ELSEWHERE;
}
