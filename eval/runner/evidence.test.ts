// The transcript viewer in the HTML report: each case × trial's conversation (tool
// calls with their arguments and results), its world at the end and its score with
// what decided it, under an anchor of its own that the cases table links to; and
// no two elements of a report share an id (a chart once hid the comparison table).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Document, Window } from 'happy-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { Trace } from '../../agents/runtime/trace';
import { writeEndState } from '../core/end-state';
import { openResults } from '../results/index';
import { compareRuns } from '../report/compare';
import { buildReport } from '../report/html';
import { loadRuns } from '../report/load';
import { syntheticAlrmRun } from '../report/synthetic';
import { Anchors } from '../report/transcript';
import { readCaseEvidence } from './evidence';

function parse(html: string): Document {
  return new new Window().DOMParser().parseFromString(html, 'text/html');
}

function duplicateIds(doc: Document): string[] {
  const seen = new Map<string, number>();
  for (const el of doc.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}

describe('transcript viewer', () => {
  let doc: Document;
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-transcript-'));
    const db = openResults(dir, { durability: 'process' });
    const run = db.startRun({ suite: 'alrm', model: 'scripted:x.json', workflow: 'alrm/tap', seed: 1, trials: 1, runId: 'r1' });
    const file = path.join(dir, 'traces', 'r1', 'boxes_1_CAN.t1.jsonl');
    const t = Trace.toFile(file, { runId: 'r1', scene: 'boxes', workflow: 'alrm/tap', model: 'scripted', seed: 1 });
    t.record({ type: 'message', role: 'user', content: 'put the <red> box on the shelf' });
    t.record({
      type: 'message',
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pick', arguments: '{"object":"red_box"}' } }],
    });
    t.record({ type: 'tool_call', id: 'c1', name: 'pick', arguments: '{"object":"red_box"}', iteration: 1 });
    t.record({
      type: 'tool_result',
      id: 'c1',
      name: 'pick',
      ok: false,
      status: 'failed',
      error: 'out of reach: red_box is 1.4 m away',
      durationMs: 812,
    });
    t.record({ type: 'message', role: 'assistant', content: 'I could not reach it.' });
    t.record({
      type: 'end',
      reason: 'final',
      iterations: 2,
      toolCalls: 1,
      usage: { promptTokens: 90, completionTokens: 12, totalTokens: 102 },
      durationMs: 900,
    });
    t.close();
    const state = JSON.stringify({ time: 12.5, robot: { x: 1, y: 2 }, grasp: undefined, scene: { red_box: { pos: [3, 0, 0.4] } } });
    writeEndState(file.replace(/\.jsonl$/, '.end.json.gz'), {
      caseId: 'boxes/1/CAN',
      trial: 1,
      hash: 'hash-at-the-end',
      scorer: 'scorer-v1',
      world: { physics: new Uint8Array([1, 2, 3]), state },
      worldModel: null,
      events: [],
      times: [],
      turn: {} as never,
      extra: {},
    });
    db.record(run.runId, {
      caseId: 'boxes/1/CAN',
      trial: 1,
      status: 'ok',
      score: 0,
      success: false,
      metrics: { alrm_score: 0 },
      failureClass: 'wrong-object',
      tracePath: file,
    });
    db.record(run.runId, {
      caseId: 'boxes/2/CAN',
      trial: 1,
      status: 'error',
      error: 'model unreachable at 127.0.0.1:9',
      errorKind: 'model-unreachable',
    });
    db.record(run.runId, {
      caseId: 'boxes/3/CAN',
      trial: 1,
      status: 'ok',
      score: 1,
      metrics: { alrm_score: 2 },
      tracePath: path.join(dir, 'gone.jsonl'),
    });
    db.finishRun(run.runId, 'finished');
    db.close();
    doc = parse(buildReport({ runs: loadRuns([dir]), outFile: path.join(dir, 'report.html'), evidence: readCaseEvidence }).html);
  });

  it("shows the conversation: messages, each tool call's arguments and its result", () => {
    const tx = doc.getElementById('case-r1-boxes-1-CAN-t1');
    expect(tx?.tagName).toBe('DETAILS');
    const text = tx!.textContent;
    expect(text).toContain('put the <red> box on the shelf');
    expect(text).toContain('pick');
    expect(text).toContain('"object": "red_box"');
    // A call is shown once, with the assistant message that made it.
    expect(text.split('"object": "red_box"').length).toBe(2);
    expect(text).toContain('out of reach: red_box is 1.4 m away');
    expect(text).toContain('I could not reach it.');
    expect(text).toContain('end: final');
  });

  it('shows the score with what decided it, and the world the end state recorded', () => {
    const text = doc.getElementById('case-r1-boxes-1-CAN-t1')!.textContent;
    expect(text).toContain('wrong-object');
    expect(text).toContain('alrm_score');
    expect(text).toContain('hash-at-the-end');
    expect(text).toContain('scorer-v1');
    expect(text).toContain('12.50');
    expect(text).toContain('red_box');
  });

  it('says in place when a case has no trace or its file is gone, and shows an error with its kind', () => {
    const err = doc.getElementById('case-r1-boxes-2-CAN-t1')!.textContent;
    expect(err).toContain('model-unreachable');
    expect(err).toContain('No trace was recorded');
    expect(doc.getElementById('case-r1-boxes-3-CAN-t1')!.textContent).toContain('trace file is missing');
  });

  it("links every row of the cases table to its case's transcript", () => {
    const links = [...doc.querySelectorAll('table.cases a[href^="#"]')].map((a) => a.getAttribute('href')!.slice(1));
    expect(links).toHaveLength(3);
    for (const id of links) expect(doc.getElementById(id)?.classList.contains('transcript')).toBe(true);
    expect(duplicateIds(doc)).toEqual([]);
  });
});

describe('anchors', () => {
  it('gives every name an id of its own', () => {
    const a = new Anchors();
    expect([a.take('x y'), a.take('x-y'), a.take('x/y'), a.take('')]).toEqual(['x-y', 'x-y-2', 'x-y-3', 'x']);
  });

  it('a report of two runs compared keeps its comparison table findable, and no id twice', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-anchors-'));
    const db = openResults(dir, { durability: 'process' });
    syntheticAlrmRun(db, { model: 'm:a', variant: 'TaP', skill: 0.9, latency: 2, trials: 1, seed: 1 });
    syntheticAlrmRun(db, { model: 'm:b', variant: 'TaP', skill: 0.6, latency: 2, trials: 1, seed: 2 });
    db.close();
    const runs = loadRuns([dir]);
    const built = buildReport({ runs, outFile: path.join(dir, 'r.html'), comparison: compareRuns(runs[0]!, runs[1]!) });
    const d = parse(built.html);
    expect(duplicateIds(d)).toEqual([]);
    expect(d.getElementById('alrm-comparison')?.tagName).toBe('TABLE');
    for (const c of built.charts) expect(d.getElementById(c.id)?.classList.contains('chart')).toBe(true);
  });
});
