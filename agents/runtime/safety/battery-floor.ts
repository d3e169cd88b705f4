// The battery floor: at the robot's stated critical level (or empty) a motion is
// refused unless it is the way to charge — docking, charging, or driving to a
// dock or to the entry docking starts from — so a robot at its critical level is
// not sent on a mission it cannot finish, yet can still reach its charger.
import type { RobotInfo } from '../../../robot/robot';
import type { SkillCall, SkillName } from '../../../robot/skills';

export const CHARGING: ReadonlySet<SkillName> = new Set(['rover.charge', 'rover.dock']);
/** Kinds of place that lead to a charger. */
const TOWARD_CHARGER = new Set(['dock', 'entry', 'charger']);

function towardCharger(call: SkillCall, info: RobotInfo): boolean {
  if (CHARGING.has(call.skill)) return true;
  if (call.skill !== 'base.navigate') return false;
  const place = info.places.find((p) => p.id === call.args.place);
  return place !== undefined && TOWARD_CHARGER.has(place.kind);
}

/** Why a motion is refused at this battery reading; undefined when it may run. */
export function batteryFloor(
  call: SkillCall,
  info: RobotInfo,
  battery: { percent: number; level: string },
  minPercent: number,
): string | undefined {
  const { percent, level } = battery;
  if (level === 'empty' || percent < minPercent)
    return CHARGING.has(call.skill) ? undefined : `the battery is ${level} (${percent}%); only charging may run`;
  const critical = info.batteryThresholds.critical;
  if ((level === 'critical' || percent <= critical) && !towardCharger(call, info))
    return `the battery is critical (${percent}%, critical at ${critical}% or less); only the way to the charger may run (drive to the dock or its entry, dock, charge)`;
  return undefined;
}
