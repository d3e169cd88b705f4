// The stop always wins: what a tab may do to a session it does not own. An
// observer may press the e-stop of the session it watches (stopping is always
// safe); only the teacher releases it. The teacher stops one group or every
// group from the class overview; each press names the teacher, so a run it ends
// says in its trace who stopped it.
import { AppApiError, type Request, type Response } from '../../contract/api';
import { groupName } from '../../contract/group-name';
import type { ExternalEvent } from '../../contract/schemas';
import type { Hosted, SessionPool } from './sessions';

export type ClassRole = 'solo' | 'group' | 'teacher';

const BY: Record<ClassRole, string> = { teacher: 'the teacher', group: 'another group', solo: 'another tab watching this session' };

/**
 * The e-stop event an observer may send to the session it watches, with who
 * sent it, or undefined when the event is not one it may send.
 */
export function observerEstop(role: ClassRole, event: ExternalEvent): ExternalEvent | undefined {
  if (event.type === 'estop_pressed') return { type: 'estop_pressed', by: BY[role] };
  if (event.type === 'estop_released' && role === 'teacher') return { type: 'estop_released', by: BY[role] };
  return undefined;
}

/** The teacher's "stop this group" / "stop all" (and release) over the pool's sessions. */
export async function stopGroups(
  pool: SessionPool,
  own: Hosted,
  role: ClassRole,
  req: Request<'stopGroups'>,
): Promise<Response<'stopGroups'>> {
  if (role !== 'teacher') throw new AppApiError('forbidden', "stopGroups: only the teacher's link stops groups (classroom mode)");
  const targets = req.id === null ? pool.all().filter((h) => h !== own) : [pool.byId(req.id)].filter((h): h is Hosted => !!h);
  if (req.id !== null && targets.length === 0)
    return { ok: false, message: `no group "${groupName({ id: req.id, label: null })}" (it may have closed)` };
  const event: ExternalEvent = req.release ? { type: 'estop_released', by: BY.teacher } : { type: 'estop_pressed', by: BY.teacher };
  if (!req.release) for (const h of targets) h.estopByTeacher = true;
  const results = await Promise.allSettled(targets.map((h) => h.api.injectEvent(event)));
  const failed = targets.filter((_, i) => {
    const r = results[i]!;
    // A session with no scene yet has no robot to stop: nothing moves there.
    if (r.status === 'fulfilled') return !r.value.ok;
    return !/no scene/i.test(String((r.reason as Error)?.message));
  });
  const verb = req.release ? 'released' : 'pressed';
  const names = targets.map(groupName).join(', ') || 'no group is open';
  if (failed.length) {
    return { ok: false, message: `e-stop not ${verb} for ${failed.map(groupName).join(', ')}` };
  }
  return { ok: true, message: `e-stop ${verb} for ${names}` };
}

/**
 * Names a session: a tab its own; the teacher any group (by `id`), kept with the
 * group's runs for the lesson. The latest deliberate rename wins; a tab
 * reattaching (`reconnect`) names its session only if it has no name yet, so a
 * name the teacher set is not overwritten by the one the group's tab kept.
 */
export function nameSession(pool: SessionPool, own: Hosted, role: ClassRole, req: Request<'setSessionLabel'>): Response<'setSessionLabel'> {
  if (req.id === undefined || req.id === own.id) {
    if (req.reconnect && own.label !== null && own.label !== req.label) {
      return { ok: true, message: `this session keeps its name "${own.label}"`, label: own.label };
    }
    own.label = req.label;
    return { ok: true, message: `this session is now called "${req.label}"`, label: own.label };
  }
  if (role !== 'teacher') throw new AppApiError('forbidden', "setSessionLabel: only the teacher's link names another group");
  const target = pool.byId(req.id);
  if (!target) return { ok: false, message: `no group "${groupName({ id: req.id, label: null })}" (it may have closed)` };
  const was = groupName(target);
  target.label = req.label;
  // The group's own tabs show the new name at once (its header's name field).
  for (const c of target.clients) c.renamed?.();
  return { ok: true, message: `${was} is now called "${req.label}"`, label: target.label };
}

/**
 * A group's own release of a stop the teacher pressed is refused: the teacher
 * stopped the class and decides when it goes on. Undefined when the event may go through.
 */
export function groupRelease(role: ClassRole, own: Hosted, event: ExternalEvent): { ok: false; message: string } | undefined {
  if (role !== 'group' || event.type !== 'estop_released' || !own.estopByTeacher || !own.estop) return undefined;
  return { ok: false, message: 'the teacher pressed this emergency stop: only the teacher releases it' };
}
