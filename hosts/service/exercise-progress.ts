// What an exercise card is checked on besides the world's facts: the tool calls
// made since the scene was loaded (console and agent alike) and the last final
// answer, kept from the service's own events.
import type { AppEvent } from '../../contract/schemas';
import type { GoalCall } from '../../eval/goals/predicates';

/** Tool calls remembered per scene for exercise checks. */
const MAX_CALLS = 500;

export class ExerciseProgress {
  private calls: GoalCall[] = [];
  private answer: string | undefined;

  /** A new scene: nothing done in it yet. */
  reset(): void {
    this.calls = [];
    this.answer = undefined;
  }

  onEvent(e: AppEvent): void {
    if (e.type === 'tool_activity' && e.phase === 'end') {
      this.calls.push({ name: e.tool, args: e.args, ok: e.ok === true });
      if (this.calls.length > MAX_CALLS) this.calls.shift();
    } else if (e.type === 'run' && e.event.kind === 'final' && e.event.text) this.answer = e.event.text;
  }

  /** The calls and answer a card's goal is checked on. */
  done(): { calls: GoalCall[]; answer?: string } {
    return { calls: this.calls, ...(this.answer !== undefined ? { answer: this.answer } : {}) };
  }
}
