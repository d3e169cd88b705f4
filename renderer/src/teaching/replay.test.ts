// A run watched again: its trace lines on the timeline in time order, each
// reachable by a step, the last one marked at the end of the run.
import { describe, expect, it } from 'vitest';
import type { RunReplay } from '../../../contract/teaching';
import { eventIndexAt, isBookmark, loadReplay, stepEvent } from './replay';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();

function replay(records: Array<{ type: string; [k: string]: unknown }>): RunReplay {
  return {
    run: {
      runId: 'r1',
      message: 'pick the lemon',
      workflow: 'flat',
      model: 'scripted',
      scene: 'tabletop/fruits',
      startedAt: at(0),
      running: false,
      reason: 'done',
      toolCalls: 1,
      durationMs: 15_802,
      poses: false,
    },
    trace: { header: { type: 'header', startedAt: at(0) }, records, truncated: false },
    poses: null,
  };
}

const RECORDS = [
  { type: 'message', role: 'user', content: 'pick the lemon', t: at(0) },
  { type: 'tool_call', name: 'pick', arguments: { object_name: 'lemon' }, t: at(1200) },
  { type: 'approval', tool: 'pick', decision: 'reject', t: at(1200) },
  { type: 'tool_result', name: 'pick', ok: false, error: 'rejected', t: at(1200) },
  // Written last, stamped before the line above it was written.
  { type: 'final', answer: 'I picked up the lemon.', t: at(15_802) },
  { type: 'stop', message: 'the emergency stop was pressed', t: at(15_801) },
];

describe('replay timeline', () => {
  it('puts the marker on the last line at the end of the run, even when the last line written is not the latest', () => {
    const r = loadReplay(replay(RECORDS));
    expect(r.events.map((e) => e.kind)).toEqual(['ask', 'call', 'approval', 'result', 'stop', 'final']);
    expect(r.duration).toBeGreaterThanOrEqual(15_802);
    expect(eventIndexAt(r, r.duration)).toBe(r.events.length - 1);
    // A slider's end past the run's end is the end too.
    expect(eventIndexAt(r, Math.ceil(r.duration) + 10)).toBe(r.events.length - 1);
  });

  it('steps one trace record at a time, lines stamped in the same millisecond included', () => {
    const r = loadReplay(replay(RECORDS));
    let t = 0;
    const seen = [eventIndexAt(r, t)];
    for (let k = 0; k < r.events.length - 1; k++) {
      t = stepEvent(r, t, 1)!;
      seen.push(eventIndexAt(r, t));
    }
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
    expect(stepEvent(r, t, 1)).toBeUndefined();
    expect(eventIndexAt(r, stepEvent(r, t, -1)!)).toBe(4);
  });

  it('bookmarks approvals, failed calls and stops', () => {
    const r = loadReplay(replay(RECORDS));
    expect(r.events.filter(isBookmark).map((e) => e.kind)).toEqual(['approval', 'result', 'stop']);
  });
});
