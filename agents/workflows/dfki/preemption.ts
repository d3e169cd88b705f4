// Preemption, the limitation paper 003 §6 names ("the system must actively poll for
// events ... long running actions are not preempted"): while the planner runs, a
// critical robot event — the emergency stop, a critical battery, a person saying
// stop — interrupts the running skill at once. The call then returns with the
// reason as its result, where the planner reads results; check_events still
// reports the event too.
import type { Robot } from '../../../robot/robot';
import type { WorkflowRun } from '../../runtime/workflow';
import { criticalReason } from '../../tools/monitors';

/** Watches the robot's events for one turn; returns what stops watching. */
export function watchForPreemption(robot: Robot, ctx: Pick<WorkflowRun, 'preempt' | 'note'>, stage: string): () => void {
  if (!robot.has('events')) return () => undefined;
  return robot.events.subscribe((e) => {
    const reason = criticalReason(e);
    if (!reason) return;
    const n = ctx.preempt(reason);
    ctx.note(
      n
        ? `preempted ${n === 1 ? 'the running action' : `${n} running actions`}: ${reason}`
        : `critical event (no action was running): ${reason}`,
      { event: { id: e.id, type: e.type, time: e.time, text: e.text }, interrupted: n },
      stage,
    );
  });
}
