// DFKI's structured final status: one status decides; an answer that gives two
// different ones (a hedge: "done" and "refused") gives none, so it is no refusal.
import { describe, expect, it } from 'vitest';
import type { FlowEvent } from '../../../agents/runtime/events';
import { finalStatus } from './index';

const final = (answer: string): FlowEvent[] => [{ type: 'final', answer, stage: 'planner' }];

describe('finalStatus', () => {
  it('reads the one status line or JSON status', () => {
    expect(finalStatus(final('I will not fly anywhere.\nSTATUS: refused'))).toBe('refused');
    expect(finalStatus(final('{"status": "done"}'))).toBe('done');
    expect(finalStatus(final('STATUS: refused\nSTATUS: refused'))).toBe('refused');
    expect(finalStatus(final('No status here.'))).toBeUndefined();
  });
  it('gives none for an answer with two different statuses', () => {
    expect(finalStatus(final('Done: fly to Paris.\nSTATUS: done\nSTATUS: refused'))).toBeUndefined();
    expect(finalStatus(final('STATUS: refused\n{"status": "success"}'))).toBeUndefined();
  });
});
