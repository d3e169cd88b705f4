// The report in a real browser (Debian's Chromium): it loads with no request but
// its own file, every figure is drawn, nothing is logged as an error (a blocked
// fetch would be), and Chromium's strict XML parser accepts the JUnit file.
// Screenshots go to test-results/ for a person to look at.
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openResults } from '../results/index';
import { buildReport } from './html';
import { junitXml } from './junit';
import { loadRuns } from './load';
import { syntheticAlrmRun, syntheticRaiderRun } from './synthetic';

const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

/** The page's globals as seen from page.evaluate (this file compiles without DOM types). */
interface PageGlobal {
  document: { querySelectorAll(selector: string): Iterable<{ hasAttribute(name: string): boolean }> };
  DOMParser: new () => { parseFromString(text: string, type: string): { getElementsByTagName(name: string): { length: number } } };
}

describe.skipIf(!existsSync(CHROMIUM))('HTML report in Chromium', () => {
  it('opens offline, draws every figure and logs no error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-report-browser-'));
    const db = openResults(dir, { durability: 'process' });
    syntheticAlrmRun(db, { model: 'openai:gpt-4.1-mini', variant: 'TaP', skill: 0.93, latency: 8, trials: 3, seed: 3, errorEvery: 40 });
    syntheticAlrmRun(db, { model: 'ollama:qwen3:8b', variant: 'CaP', skill: 0.8, latency: 20, trials: 3, seed: 4, stopLast: 5 });
    syntheticRaiderRun(db, { model: 'openai:gpt-4.1-mini', variant: 'QGEN_GRND', skill: 0.9, latency: 4.5 });
    syntheticRaiderRun(db, { model: 'openai:gpt-4.1-mini', variant: 'BASIC', skill: 0.7, latency: 3.9, seed: 5 });
    db.close();
    const runs = loadRuns([dir]);
    const file = join(dir, 'report.html');
    const built = buildReport({ runs, outFile: file });
    writeFileSync(file, built.html);

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(m.text()));
      page.on('pageerror', (e) => problems.push(String(e)));
      await page.goto(pathToFileURL(file).href);
      await page.waitForFunction(
        () => [...(globalThis as unknown as PageGlobal).document.querySelectorAll('.chart')].every((c) => c.hasAttribute('data-rendered')),
        undefined,
        {
          timeout: 20_000,
        },
      );
      const charts = await page.$$eval('.chart', (cs) =>
        cs.map((c) => ({ id: c.id, state: c.getAttribute('data-rendered'), svg: c.querySelectorAll('svg').length })),
      );
      expect(charts.map((c) => c.id)).toEqual(built.charts.map((c) => c.id));
      for (const c of charts) {
        expect(c.state, c.id).toBe('true');
        expect(c.svg, c.id).toBeGreaterThan(0);
      }
      // Bars, boxes and lines are drawn from the data, not left empty.
      expect(await page.$$eval('#alrm-score-by-category rect', (r) => r.length)).toBeGreaterThanOrEqual(10);
      expect(await page.$$eval('#alrm-passk path', (p) => p.length)).toBeGreaterThanOrEqual(2);
      expect(requests).toEqual([pathToFileURL(file).href]);
      expect(problems).toEqual([]);

      const junit = await page.evaluate((xml) => {
        const d = new (globalThis as unknown as PageGlobal).DOMParser().parseFromString(xml, 'application/xml');
        return { error: d.getElementsByTagName('parsererror').length, cases: d.getElementsByTagName('testcase').length };
      }, junitXml(runs));
      expect(junit).toEqual({ error: 0, cases: runs.reduce((n, r) => n + r.results.length, 0) });

      const out = resolve(import.meta.dirname, '../../test-results');
      mkdirSync(out, { recursive: true });
      await page.screenshot({ path: join(out, 'eval-report.png'), fullPage: false });
      await page.locator('#suite-raider').screenshot({ path: join(out, 'eval-report-raider.png') });
    } finally {
      await browser.close();
    }
  }, 120_000);
});
