// Reports from synthetic results of two ALRM runs and one RAIDER run: the paper's
// tables, the chart data, trace links, no network URL, JUnit counts and CSV columns.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { type Document, type Element, Window } from 'happy-dom';
import { beforeAll, describe, expect, it } from 'vitest';
import { openResults } from '../results/index';
import type { ChartSpec } from './charts';
import { resultsCsv } from './csv';
import { buildReport } from './html';
import { junitXml } from './junit';
import { type LoadedRun, loadRuns } from './load';
import { reportSpecFor } from './specs';
import { metricInterval, taskOf } from './stats';
import { syntheticAlrmRun, syntheticRaiderRun } from './synthetic';

let dir: string;
let runs: LoadedRun[];
let outFile: string;
let html: string;
let doc: Document;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'skillbridge-report-'));
  const db = openResults(dir, { durability: 'process' });
  syntheticAlrmRun(db, { model: 'openai:gpt-4.1-mini', variant: 'TaP', skill: 0.93, latency: 8, trials: 2, seed: 3, errorEvery: 25 });
  syntheticAlrmRun(db, { model: 'ollama:qwen3:8b', variant: 'CaP', skill: 0.8, latency: 20, trials: 2, seed: 4, stopLast: 3 });
  syntheticRaiderRun(db, { model: 'openai:gpt-4.1-mini', variant: 'QGEN_GRND', skill: 0.9, latency: 4.5 });
  db.close();
  runs = loadRuns([dir]);
  outFile = join(dir, 'reports', 'report.html');
  html = buildReport({ runs, outFile, now: new Date('2026-11-23T12:00:00Z') }).html;
  doc = new new Window().DOMParser().parseFromString(html, 'text/html');
});

function tableText(id: string): string[][] {
  const t = doc.getElementById(id);
  if (!t) throw new Error(`no table #${id}`);
  // A cell's figure without the small "n" beside it.
  const text = (c: Element) =>
    [...c.childNodes]
      .filter((n) => !(n as Element).classList?.contains('n'))
      .map((n) => n.textContent)
      .join('')
      .trim();
  return [...t.querySelectorAll('tr')].map((tr) => [...tr.querySelectorAll('th, td')].map(text));
}

describe('HTML report', () => {
  it('has ALRM Table III: score counts, per-category percentages, AVG and latency, one row per mode', () => {
    const rows = tableText('alrm-table-iii');
    expect(rows[0]).toEqual(['Variant', 'Model', 'Score (counts)', 'Per category (%)', 'Latency']);
    expect(rows[1]).toEqual(['0', '1', '2', 'CAN', 'LEX', 'SYN', 'SEM', 'HLR', 'AVG', 's']);
    expect(rows.slice(2).map((r) => r.slice(0, 2))).toEqual([
      ['CaP', 'ollama:qwen3:8b'],
      ['TaP', 'openai:gpt-4.1-mini'],
    ]);
    // The counts add up to the ok results, and AVG is (count1 + 2·count2) / (2·all).
    const tap = runs.find((r) => r.run.variant === 'TaP')!;
    const ok = tap.results.filter((r) => r.status === 'ok').length;
    const [c0, c1, c2] = rows[3]!.slice(2, 5).map((c) => parseInt(c, 10)) as [number, number, number];
    expect(c0 + c1 + c2).toBe(ok);
    expect(parseFloat(rows[3]![10]!)).toBeCloseTo((100 * (c1 + 2 * c2)) / (2 * ok), 1);
  });

  it('summarises each run with its headline, errors and pass^k', () => {
    const rows = tableText('alrm-summary');
    expect(rows[0]!.slice(0, 7)).toEqual(['Run', 'Status', 'Cases', 'Errors', 'Score', 'pass^1', 'pass^2']);
    const tap = rows.find((r) => r[0] === 'TaP · openai:gpt-4.1-mini')!;
    expect(tap[1]).toBe('finished');
    expect(Number(tap[3])).toBe(runs.find((r) => r.run.variant === 'TaP')!.results.filter((r) => r.status === 'error').length);
    expect(rows.find((r) => r[0]!.startsWith('CaP'))![1]).toBe('stopped');
  });

  it('breaks RAIDER down per taxonomy cell and keeps its Table 1 layout', () => {
    expect(tableText('raider-by-issue')[1]).toEqual(['IA', 'IN', 'IU1', 'IU2', 'IU3', 'IU4', 'IU5', 'IU6']);
    const raider = runs.find((r) => r.run.suite === 'raider')!;
    const cell = tableText(`raider-cell-${raider.run.runId}`);
    expect(cell[0]![0]).toBe('Issue type \\ Query type × Abstraction');
    expect(cell[1]).toEqual(['AS', 'AS', 'AN', 'AR', 'AC']);
    expect(cell.slice(2).map((r) => r[0])).toEqual(['IA', 'IN', 'IU1', 'IU2', 'IU3', 'IU4', 'IU5', 'IU6']);
  });

  it('gives every estimate in the paper and breakdown tables its 95 % interval; counts have none', () => {
    const withIv = /^(-?\d+(?:\.\d+)?) \[(-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\]$/;
    const bracketed = (text: string) => {
      const m = withIv.exec(text);
      if (!m) throw new Error(`no interval in "${text}"`);
      const [value, low, high] = m.slice(1).map(Number) as [number, number, number];
      expect(low).toBeLessThanOrEqual(value);
      expect(value).toBeLessThanOrEqual(high);
      return { value, low, high };
    };
    // ALRM Table III: the score counts stay bare, every percentage and the latency get one.
    const tapRow = tableText('alrm-table-iii')[3]!;
    expect(tapRow.slice(2, 5).every((c) => /^\d+$/.test(c))).toBe(true);
    for (const c of tapRow.slice(5)) bracketed(c);
    // AVG's interval is the one the JSON summary gives for the same results.
    const tap = runs.find((r) => r.run.variant === 'TaP')!;
    const iv = metricInterval(tap.results, reportSpecFor('alrm').metrics.success_rate!, taskOf(reportSpecFor('alrm')))!;
    expect(bracketed(tapRow[10]!)).toMatchObject({ low: Number((iv.low * 100).toFixed(1)), high: Number((iv.high * 100).toFixed(1)) });
    // RAIDER's paper tables and every filled breakdown cell, with the n the cell rests on beside it.
    for (const c of tableText('raider-by-issue')[2]!.slice(2)) if (c !== '—') bracketed(c);
    const raider = runs.find((r) => r.run.suite === 'raider')!;
    const cells = doc.getElementById(`raider-cell-${raider.run.runId}`)!.querySelectorAll('tbody td.a-right');
    expect(cells.length).toBeGreaterThan(10);
    for (const td of cells) {
      if (td.textContent === '—') continue;
      expect(td.querySelector('.n')?.textContent).toMatch(/^\d+$/);
      bracketed(td.childNodes[0]!.textContent!);
    }
    expect(doc.getElementById(`raider-cell-${raider.run.runId}`)!.querySelector('caption')!.textContent).toContain('95 % interval');
  });

  it('embeds the chart data: score per category, latency, pass^k and the model comparison', () => {
    const charts = JSON.parse(doc.getElementById('chart-data')!.textContent!) as ChartSpec[];
    const byId = new Map(charts.map((c) => [c.id, c]));
    const cat = byId.get('alrm-score-by-category');
    expect(cat?.kind === 'bars' && cat.groups).toEqual(['CAN', 'LEX', 'SYN', 'SEM', 'HLR']);
    expect(cat?.kind === 'bars' && cat.series).toEqual(['TaP · openai:gpt-4.1-mini', 'CaP · ollama:qwen3:8b']);
    const passk = byId.get('alrm-passk');
    expect(passk?.kind === 'passk' && passk.data.filter((d) => d.series.startsWith('TaP')).map((d) => d.k)).toEqual([1, 2]);
    const latency = byId.get('alrm-latency');
    expect(latency?.kind === 'latency' && latency.data.length).toBe(
      runs.filter((r) => r.run.suite === 'alrm').flatMap((r) => r.results.filter((x) => x.status === 'ok')).length,
    );
    expect(byId.get('alrm-model-comparison')?.kind).toBe('bars');
    // One RAIDER run: nothing to compare, and one trial: no pass^k curve.
    expect(byId.has('raider-model-comparison')).toBe(false);
    expect(byId.has('raider-passk')).toBe(false);
    for (const c of charts) expect(doc.getElementById(c.id)?.className).toBe('chart');
  });

  it("links every case to its trace, relative to the report's folder", () => {
    const links = [...doc.querySelectorAll('table.cases a:not([href^="#"])')].map((a) => a.getAttribute('href')!);
    expect(links.length).toBe(runs.reduce((n, r) => n + r.results.length, 0));
    for (const href of links) {
      expect(href).toMatch(/^\.\.\/traces\//);
      expect(existsSync(resolve(dirname(outFile), decodeURI(href)))).toBe(true);
    }
  });

  it('makes no network request: inline scripts and styles only, and a CSP that forbids the rest', () => {
    expect(html).not.toMatch(/<script[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link[^>]*\shref=/i);
    expect(html).not.toMatch(/url\(\s*['"]?(https?:)?\/\//i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/\s(src|href|srcset|poster|data)=["']?(https?:)?\/\//i);
    expect(doc.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content')).toMatch(/^default-src 'none';/);
    expect([...doc.querySelectorAll('script[data-lib]')].map((s) => s.getAttribute('data-lib'))).toEqual(['d3', '@observablehq/plot']);
  });
});

describe('JUnit XML and CSV', () => {
  it('JUnit parses and counts a testcase per case × trial: failures, errors, skipped', () => {
    const xml = new new Window().DOMParser().parseFromString(junitXml(runs), 'application/xml');
    expect(xml.getElementsByTagName('parsererror')).toHaveLength(0);
    const all = runs.flatMap((r) => r.results);
    const root = xml.documentElement;
    expect(root.tagName).toBe('testsuites');
    expect(Number(root.getAttribute('tests'))).toBe(all.length);
    expect(xml.getElementsByTagName('testcase')).toHaveLength(all.length);
    expect(xml.getElementsByTagName('testsuite')).toHaveLength(3);
    const failed = all.filter((r) => r.status === 'ok' && !r.success).length;
    const errors = all.filter((r) => r.status === 'error').length;
    const skipped = all.filter((r) => r.status === 'stopped').length;
    expect([
      xml.getElementsByTagName('failure').length,
      xml.getElementsByTagName('error').length,
      xml.getElementsByTagName('skipped').length,
    ]).toEqual([failed, errors, skipped]);
    expect([root.getAttribute('failures'), root.getAttribute('errors'), root.getAttribute('skipped')]).toEqual([
      String(failed),
      String(errors),
      String(skipped),
    ]);
    expect(errors).toBeGreaterThan(0);
    expect(skipped).toBe(3);
  });

  it('CSV has the fixed columns, a column per label and metric, a row per result, and quotes safely', () => {
    const csv = resultsCsv(runs);
    const lines = csv.trimEnd().split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.slice(0, 10)).toEqual([
      'run_id',
      'suite',
      'model',
      'workflow',
      'variant',
      'case_id',
      'trial',
      'status',
      'success',
      'score',
    ]);
    expect(header).toEqual(
      expect.arrayContaining(['label.category', 'label.issue', 'metric.alrm_score', 'metric.det', 'trace_path', 'world_hash_end']),
    );
    expect(lines).toHaveLength(1 + runs.reduce((n, r) => n + r.results.length, 0));
    const tricky = resultsCsv([
      { ...runs[0]!, results: [{ ...runs[0]!.results[0]!, error: 'said "no", then\nleft', failureClass: '=cmd()' }] },
    ]);
    expect(tricky).toContain('"said ""no"", then\nleft"');
    expect(tricky).toContain(",'=cmd(),");
  });
});
