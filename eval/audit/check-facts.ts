// Facts in a snapshot: the robot's own state must hold exactly, each object has
// at most one location fact, and an object's location fact is what the robot
// believes (on(x, robot_hand) for what rests on the hand, on(x, unperceived)
// for a support it has not perceived, moving(x) for what it saw still moving).
import { type CallUnderCheck, type Finding } from './check-core';

/**
 * The arm's named postures in joint values (radians or metres), and which joints turn round: the built-in arm's
 * from its config in degrees (yaw and roll turn); a described robot's from its description, by value per joint
 * (its config keeps only their names), a joint turning round when its range spans a full turn.
 */
function namedPostures(w: CallUnderCheck['world']): Record<string, { values: readonly number[]; turns: readonly boolean[] }> {
  const k = w.kinematics;
  if (k?.kind === 'chain') {
    const turns = k.limits.map(([lo, hi]) => hi - lo >= 2 * Math.PI - 1e-9);
    return Object.fromEntries(Object.entries(k.postures).map(([n, values]) => [n, { values, turns }]));
  }
  return Object.fromEntries(
    Object.entries(w.scene.robot.arm?.postures ?? {}).map(([n, deg]) => [
      n,
      { values: deg.map((d) => (d * Math.PI) / 180), turns: deg.map((_, i) => i === 0 || i === 4) },
    ]),
  );
}

/** Robot facts in a snapshot: the robot knows its own state, so each must hold exactly. */
function checkRobotFacts(c: CallUnderCheck, text: string): Finding[] {
  const out: Finding[] = [];
  const w = c.world;
  const a = c.after;
  const lie = (f: string, why: string): void => void out.push({ class: 'lies', detail: `reported ${f} but ${why}` });
  for (const f of text.split('\n').map((l) => l.trim())) {
    let m = /^robot_at\(robot, ([a-z0-9_]+)\)$/.exec(f);
    if (m) {
      let best: { id: string; d: number } | undefined;
      for (const l of w.locations.values()) {
        const d = Math.hypot(a.base.pos.x - l.pose.position[0], a.base.pos.z - l.pose.position[2]);
        if (d <= 0.2 && (!best || d < best.d)) best = { id: l.id, d };
      }
      const want = best?.id ?? 'unknown';
      if (m[1] !== want) lie(f, `the base is at ${want} (0.2 m tolerance)`);
      continue;
    }
    m = /^robot_has_arm_posture\(robot, ([a-z0-9_]+)\)$/.exec(f);
    if (m && !a.joints) lie(f, 'the robot has no arm');
    if (m && a.joints) {
      const within = Object.entries(namedPostures(w))
        .filter(([, p]) =>
          p.values.every((v, i) => {
            const d = a.joints![i]! - v;
            return (p.turns[i] ? Math.abs(Math.atan2(Math.sin(d), Math.cos(d))) : Math.abs(d)) <= 0.01 + 1e-9;
          }),
        )
        .map(([n]) => n);
      if (m[1] === 'unknown' ? within.length > 0 : !within.includes(m[1]!))
        lie(f, `the joints are in ${within.join(' or ') || 'no named posture'}`);
      continue;
    }
    m = /^holding\(robot, ([a-z0-9_]+)\)$/.exec(f);
    if (m && a.held !== m[1]) lie(f, `the hand holds ${a.held ?? 'nothing'}`);
    if (f === 'hand_empty(robot)' && a.held) lie(f, `the hand holds ${a.held}`);
    if (f === 'estop_pressed(robot)' && !a.estop) lie(f, 'the emergency stop is not pressed');
    if (f === 'docked(robot)' && !a.docked) lie(f, 'the robot is not docked');
  }
  if (/^(robot_|battery)/m.test(text) && a.estop && !text.includes('estop_pressed(robot)')) {
    out.push({ class: 'lies', detail: 'a snapshot left out estop_pressed(robot) while the emergency stop is pressed' });
  }
  return out;
}

/** Placement facts in a snapshot: at most one per object (exactly one location each). */
function checkOneLocation(text: string): Finding[] {
  const count = new Map<string, number>();
  for (const m of text.matchAll(/^(?:on|in)\(([a-z0-9_]+), [a-z0-9_]+\)$/gm)) count.set(m[1]!, (count.get(m[1]!) ?? 0) + 1);
  for (const m of text.matchAll(/^(?:holding\(robot, ([a-z0-9_]+)\)|moving\(([a-z0-9_]+)\))$/gm)) {
    const id = (m[1] ?? m[2])!;
    count.set(id, (count.get(id) ?? 0) + 1);
  }
  return [...count]
    .filter(([, n]) => n > 1)
    .map(([id, n]) => ({ class: 'invariants' as const, detail: `${id} has ${n} location facts in one snapshot` }));
}

/**
 * Object location facts in a snapshot say what the robot believes: each must be
 * the belief's own record (on(x, robot_hand) for what rests on the hand,
 * on(x, unperceived) for a support it has not perceived).
 */
function checkBeliefFacts(c: CallUnderCheck, text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(/^(on|in)\(([a-z0-9_]+), ([a-z0-9_]+)\)$/gm)) {
    const [f, rel, id, support] = m as unknown as [string, string, string, string];
    const b = c.world.belief.get(id);
    const p = b?.place;
    const robotPart = /^robot_(hand|arm|base)$/.exec(support)?.[1];
    const same =
      p &&
      (robotPart
        ? rel === 'on' && p.kind === 'robot' && p.part === robotPart
        : support === 'unperceived'
          ? p.kind === 'unperceived' && p.relation === rel
          : support === 'floor'
            ? rel === 'on' && p.kind === 'floor'
            : p.kind === rel && 'id' in p && p.id === support);
    if (!same && !c.world.entities.get(id)?.fixed) {
      out.push({ class: 'lies', detail: `reported ${f} but the robot believes ${p ? JSON.stringify(p) : 'nothing of it'}` });
    }
  }
  for (const m of text.matchAll(/^moving\(([a-z0-9_]+)\)$/gm)) {
    const p = c.world.belief.get(m[1]!)?.place;
    if (p?.kind !== 'moving')
      out.push({ class: 'lies', detail: `reported ${m[0]} but the robot believes ${p ? JSON.stringify(p) : 'nothing of it'}` });
  }
  return out;
}

/** Every fact check, for a text that holds a snapshot. */
export function checkFacts(c: CallUnderCheck, text: string): Finding[] {
  return [...checkRobotFacts(c, text), ...checkOneLocation(text), ...checkBeliefFacts(c, text)];
}
