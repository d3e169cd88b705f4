// What a skill's outcome says, sentence by sentence: its summary (success or
// failure, with the code) and each incident. Success is judged against the
// physics after the call (the hand, the place, the posture, the base, the
// door, the battery); a failure's reason against the physics, the catalogue
// and the robot's belief, as the reason speaks of one or the other.
import { type Judge, type Rule, readOne } from './check-read';
import { ID, NUM, THING, exists, holds, inBaseFrame, recordOf, restsNow, samePoint, stateIs } from './check-judge';
import { WHO } from './check-said-parts';
import { readIncident, readWho } from './check-said-incidents';
import { readScan } from './check-said-farm';
import { checkArrived } from './check-said-paths';
import {
  LIES,
  TRIPLE,
  WHERE_AT,
  args,
  baseAt,
  inPosture,
  liesSaid,
  offSaid,
  perceivedItem,
  placeHere,
  pointOf,
  positionSaid,
  readWhoId,
} from './check-said-skill-parts';
import { HAND_AND_WAY } from './check-said-failures';
import { ARGS_AND_STATE } from './check-said-refusals';

const SUCCESS: readonly Rule[] = [
  [
    new RegExp(`picked up ${THING}`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      holds(j, m[1], m[0]!);
    },
  ],
  [
    new RegExp(`(put|placed) ${THING} (into|on) (.+?)${WHERE_AT}${LIES}(; it is still rolling)?`),
    (m, j) => {
      const id = m[2]!;
      exists(j, id, m[3]);
      const label = m[5]!;
      const t = new RegExp(`^${THING}$`).exec(label);
      if (!t) return void j.unread(label);
      exists(j, t[1]!, t[2]);
      restsNow(j, id, { kind: m[4] === 'into' ? 'in' : 'on', id: t[1]! }, m[0]!);
      if (m[6] !== undefined) positionSaid(j, id, pointOf(j, m, 6, m[0]!), `${id}'s position`);
      offSaid(j, id, m[9], m[10]);
      liesSaid(j, id, m[11], m[12]);
      // Still rolling as the call returned: no settled position could be said; at rest, one must be.
      if (m[13] && !j.c.after.moving.has(id)) j.lie(`said ${id} is still rolling, but it was at rest as the call returned`);
    },
  ],
  [
    /the arm is (?:already )?in the (\w+) posture(?:; holding (\S+))?/,
    (m, j) => {
      inPosture(j, m[1]!);
      if (m[2]) holds(j, m[2], m[0]!);
    },
  ],
  [
    new RegExp(`the gripper is at ${TRIPLE}`),
    (m, j) => {
      const said = pointOf(j, m, 1, m[0]!);
      if (!j.c.after.tcp) return void j.lie('said where the gripper is, but the robot has no arm');
      samePoint(j, said.p, said.world ? j.c.after.tcp : inBaseFrame(j, j.c.after.tcp), 0.01, 'the gripper');
    },
  ],
  [
    new RegExp(`moved the gripper by \\((${NUM}), (${NUM}), (${NUM})\\) m to ${TRIPLE}`),
    (m, j) => {
      const a = args(j);
      const by = [Number(a['forward'] ?? 0), Number(a['left'] ?? 0), Number(a['up'] ?? 0)];
      if (j.c.tool === 'nudge_arm' && by.some((v, i) => Math.abs(v - Number(m[i + 1])) > 1e-6))
        j.lie(`said it moved by (${m[1]}, ${m[2]}, ${m[3]}), but was asked (${by.join(', ')})`);
      const said = pointOf(j, m, 4, m[0]!);
      if (j.c.after.tcp) samePoint(j, said.p, said.world ? j.c.after.tcp : inBaseFrame(j, j.c.after.tcp), 0.01, 'the gripper');
    },
  ],
  [
    new RegExp(`arrived at (${ID}|the new pose|${WHO})(?: after (${NUM}) m; battery now (${NUM})%)?`),
    (m, j) => {
      const label = m[1]!;
      if (m[2] !== undefined) readWho(j, m[2], m[3]!);
      else if (label !== 'the new pose') baseAt(j, label, m[0]!);
      checkArrived(j, m[3] ?? label);
      if (m[4] !== undefined) {
        const moved = Math.hypot(j.c.after.base.pos.x - j.c.before.base.pos.x, j.c.after.base.pos.z - j.c.before.base.pos.z);
        if (Number(m[4]) < moved - 0.05) j.lie(`said it drove ${m[4]} m, but the base moved ${moved.toFixed(2)} m in a straight line`);
        if (Math.abs(Number(m[5]) - j.c.after.batteryPercent) > 0.6)
          j.lie(`said the battery is now ${m[5]}%, but it is ${j.c.after.batteryPercent.toFixed(1)}%`);
      }
    },
  ],
  [
    new RegExp(`switched ${THING} (on|off)`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      stateIs(j, m[1]!, 'on', m[3] === 'on', m[0]!);
    },
  ],
  [
    new RegExp(`(opened|closed) ${THING}`),
    (m, j) => {
      exists(j, m[2]!, m[3]);
      stateIs(j, m[2]!, 'open', m[1] === 'opened', m[0]!);
    },
  ],
  [
    new RegExp(`sliced ${THING} with (${ID})`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      stateIs(j, m[1]!, 'sliced', true, m[0]!);
      holds(j, m[3], m[0]!);
    },
  ],
  [
    /said: "([^]*)"/,
    (m, j) => {
      const a = args(j);
      const asked = [a['statement'], a['text'], Array.isArray(a['params']) ? (a['params'] as string[]).join(' ') : undefined].find(
        (x) => typeof x === 'string',
      ) as string | undefined;
      if (asked !== undefined && asked.trim() !== m[1]) j.lie(`said it said "${m[1]}", but was asked to say "${asked.trim()}"`);
    },
  ],
  [
    new RegExp(`waited (${NUM}) s`),
    (m, j) => {
      const p = args(j)['params'];
      const asked = Number(Array.isArray(p) && p.length ? p[0] : 5);
      const took = j.c.ended - j.c.before.time;
      if (Number.isFinite(asked) && Math.abs(asked - Number(m[1])) > Math.max(0.05, asked * 0.001))
        j.lie(`said it waited ${m[1]} s, but was asked ${asked} s`);
      if (took < Number(m[1]) - 0.05) j.lie(`said it waited ${m[1]} s, but the call took ${took.toFixed(2)} s`);
    },
  ],
  [
    /(someone|\S+) answered: "([^]*)"/,
    (m, j) => {
      const said = j.c.world.events.since(j.c.eventsBefore).some((e) => e.type === 'person_said' && e.text === m[2]);
      if (!said) j.lie(`said ${m[1]} answered "${m[2]}", but nobody said that during the call`);
      if (m[1] !== 'someone') readWhoId(j, m[1]!);
    },
  ],
  [
    new RegExp(`undocked; now at (${ID})`),
    (m, j) => {
      if (j.c.after.docked) j.lie('said it undocked, but it is docked');
      baseAt(j, m[1]!, m[0]!);
    },
  ],
  [
    new RegExp(`docked at (${ID})`),
    (m, j) => {
      if (!j.c.after.docked) j.lie('said it docked, but it is not docked');
      exists(j, m[1]!);
    },
  ],
  [
    /charged from (\d+)% to (\d+)% in (\d+) min/,
    (m, j) => {
      if (Math.abs(Number(m[1]) - j.c.before.batteryPercent) > 0.6)
        j.lie(`said it charged from ${m[1]}%, but the battery was at ${j.c.before.batteryPercent.toFixed(1)}%`);
      if (Math.abs(Number(m[2]) - j.c.after.batteryPercent) > 0.6)
        j.lie(`said it charged to ${m[2]}%, but the battery is at ${j.c.after.batteryPercent.toFixed(1)}%`);
      const min = (j.c.ended - j.c.before.time) / 60;
      if (Math.abs(Number(m[3]) - min) > 0.6) j.lie(`said charging took ${m[3]} min, but the call took ${min.toFixed(1)} min`);
    },
  ],
  [new RegExp(`scanned (${ID}), (\\d+) plants?(?:: (.+))?`), (m, j) => readScan(j, m[1]!, Number(m[2]), m[3])],
  [
    /perceived (at \S+|here): (.+?)(?:; no longer seen: (.+))?/,
    (m, j) => {
      const here = placeHere(j);
      const at = m[1] === 'here' ? undefined : m[1]!.slice(3);
      if (here.sure && here.id !== at) j.lie(`said it perceived ${m[1]}, but the base stands at ${here.id ?? 'no named place'}`);
      if (m[2] !== 'no objects') for (const item of m[2]!.split(', ')) perceivedItem(j, item);
      for (const id of m[3]?.split(', ') ?? []) if (recordOf(j, id)) j.lie(`said ${id} is no longer seen, but the robot still records it`);
    },
  ],
  [
    new RegExp(`handed ${THING} to ${WHO}`),
    (m, j) => {
      exists(j, m[1]!, m[2]);
      readWho(j, m[3]!, m[4]!);
      if (j.c.world.handedOver.get(m[1]!) !== m[4]) j.lie(`said it handed ${m[1]} to ${m[4]}, but ${m[4]} does not have it`);
    },
  ],
  [
    /waved (\d) times?/,
    (m, j) => {
      const asked = Number(args(j)['times'] ?? 2);
      if (asked !== Number(m[1])) j.lie(`said it waved ${m[1]} times, but was asked ${asked}`);
    },
  ],
];

const FAILURE: Record<string, readonly Rule[]> = { ...HAND_AND_WAY, ...ARGS_AND_STATE };

/** Judges a skill's outcome text: the summary by its code, then each incident. */
export function readOutcome(j: Judge, o: { ok: boolean; code?: string; summary: string; incidents?: string[] }): void {
  if (o.ok) readOne(j, o.summary, SUCCESS);
  else {
    const rules = FAILURE[o.code ?? ''];
    if (rules) readOne(j, o.summary, rules);
    else j.unread(`Failed (${o.code}): ${o.summary}`);
  }
  for (const i of o.incidents ?? []) readIncident(j, i);
}
