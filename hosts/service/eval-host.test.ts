// The Evaluate view's host side on a headless session: a run of a small sample
// on an evaluation worker thread with progress events, the run and its cases
// from the results database, the report page, and a case replayed as the
// current scene ending in the recorded state.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EvalEvent } from '../../contract/eval';
import { FRAME_HEADER, decodeFrames, readHeader } from '../../contract/frames';
import type { AppEvent } from '../../contract/schemas';
import { AppService } from './app-service';

describe('Evaluate (session)', () => {
  // A session's own results folder, not made yet (web mode gives each session one).
  const dir = join(mkdtempSync(join(tmpdir(), 'skillbridge-eval-host-')), 'session-1');
  const session = new AppService({ paced: false, evalDir: dir });
  const events: AppEvent[] = [];
  session.onEvent((e) => events.push(e));
  afterAll(() => session.dispose());
  const evals = () => events.flatMap((e) => (e.type === 'eval' ? [e.event] : []));

  it('lists the suites with their workflows', async () => {
    const suites = await session.listSuites({});
    expect(suites.map((s) => s.id)).toEqual(['raider', 'alrm', 'etp', 'etp-images', 'dfki', 'rtw']);
    expect(suites.find((s) => s.id === 'alrm')).toMatchObject({
      defaultWorkflow: 'alrm/tap',
      workflows: expect.arrayContaining(['alrm/cap']),
    });
  });

  it('runs a sample off the session thread, streams progress, and lists the run, its cases and its report', async () => {
    const { runId } = await session.startEval({ suite: 'alrm', model: 'oracle', workflow: 'alrm/tap', sample: 3 });
    await expect(session.startEval({ suite: 'alrm', model: 'oracle' })).rejects.toThrow(/an evaluation is running/);
    await expect.poll(() => evals().some((e) => e.kind === 'ended'), { timeout: 120_000, interval: 200 }).toBe(true);
    const progress = evals().filter((e): e is Extract<EvalEvent, { kind: 'progress' }> => e.kind === 'progress');
    expect(progress.at(-1)).toMatchObject({ runId, total: 3, done: 3, errors: 0, score: 1 });
    expect(evals().find((e) => e.kind === 'ended')).toMatchObject({ run: { runId, status: 'finished', cases: 3, score: 1 }, error: null });
    const runs = await session.listEvalRuns({});
    expect(runs[0]).toMatchObject({ runId, suite: 'alrm', model: 'oracle', workflow: 'alrm/tap' });
    const cases = await session.evalCases({ runId });
    expect(cases).toHaveLength(3);
    expect(cases.every((c) => c.status === 'ok' && c.score === 1)).toBe(true);
    const report = await session.evalReport({ runId });
    expect(report.name).toBe(`report-${runId}.html`);
    expect(report.html).toContain('Per category (%)');
    expect(report.html).not.toMatch(/src="https?:/);
  }, 180_000);

  it('replays a case as the current scene, every recorded call succeeding again, to the same goal', async () => {
    const [run] = await session.listEvalRuns({});
    const [c] = await session.evalCases({ runId: run!.runId });
    const before = events.length;
    const r = await session.replayCase({ runId: run!.runId, caseId: c!.caseId, trial: 1 });
    expect(r.ok).toBe(true);
    expect(r.calls).toBeGreaterThanOrEqual(4);
    const scene = await session.currentScene({});
    expect(scene?.id).toMatch(/^tabletop\//);
    const ends = () => events.slice(before).filter((e) => e.type === 'tool_activity' && e.phase === 'end');
    await expect.poll(() => ends().length, { timeout: 60_000, interval: 200 }).toBe(r.calls);
    expect(ends().every((e) => e.type === 'tool_activity' && e.ok)).toBe(true);
    const facts = (await session.getSnapshot({})).facts;
    expect(facts.some((f) => /^in\(.+, (trash_1|bowl_1|basket_1|storage_container_1)\)$/.test(f) || /^on\(/.test(f))).toBe(true);
  }, 120_000);

  it("gives a case's transcript: its verdict with the scorer, the messages, tool calls and their results; an unknown case in one line", async () => {
    const [run] = await session.listEvalRuns({});
    const [c] = await session.evalCases({ runId: run!.runId });
    const t = await session.caseTranscript({ runId: run!.runId, caseId: c!.caseId, trial: 1 });
    const verdict = Object.fromEntries(t.verdict);
    expect(verdict).toMatchObject({ status: 'pass', score: expect.stringMatching(/1/) });
    expect(verdict['scorer']).toMatch(/^[0-9a-f]{16}$/);
    const kinds = new Set(t.steps.map((s) => s.kind));
    for (const k of ['system', 'user', 'call', 'result-ok'] as const) expect(kinds, k).toContain(k);
    expect(t.steps.find((s) => s.kind === 'call')!.code).toMatch(/^\{/);
    expect(t.problems).toEqual([]);
    await expect(session.caseTranscript({ runId: run!.runId, caseId: 'nope', trial: 1 })).rejects.toThrow(/has no case nope trial 1/);
  });

  it('opens a case as its recorded trace for the replay timeline, leaving the live world as it is', async () => {
    const [run] = await session.listEvalRuns({});
    const [c] = await session.evalCases({ runId: run!.runId });
    const scene = await session.currentScene({});
    const r = await session.caseReplay({ runId: run!.runId, caseId: c!.caseId, trial: 1 });
    // Finished, with how it ended (never "running"), and its world at the start and at the end in 3D.
    expect(r.run).toMatchObject({ running: false, reason: 'done', poses: true });
    const rec = r.poses!;
    expect(rec.count).toBe(2);
    const [start, end] = decodeFrames(rec.frames, rec.frameLength);
    expect(readHeader(end!).wallMs).toBeGreaterThan(readHeader(start!).wallMs);
    // The oracle moved something: the two frames differ in the objects' poses.
    expect([...start!.slice(FRAME_HEADER)].some((v, i) => Math.abs(v - end![FRAME_HEADER + i]!) > 1e-3)).toBe(true);
    expect(r.run.message).toContain(c!.caseId);
    expect(r.trace.records.some((x) => x.type === 'tool_call')).toBe(true);
    expect((await session.currentScene({}))?.generation).toBe(scene?.generation);
  });

  it('answers a run it does not have with a clear error', async () => {
    await expect(session.evalCases({ runId: 'alrm-nope' })).rejects.toThrow(/alrm-nope/);
  });
});
