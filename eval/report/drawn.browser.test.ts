// What the report draws, looked at in Chromium: every estimate in a figure has its
// interval drawn, a run's long name never pushes a number off its chart (it is cut
// with an ellipsis and the full name is the tooltip), no two elements share an id,
// and a case's link opens its transcript.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openResults } from '../results/index';
import { compareRuns } from './compare';
import { buildReport } from './html';
import { loadRuns } from './load';
import { syntheticAlrmRun } from './synthetic';

const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const LONG = `openai:${'a-checkpoint-with-a-very-long-name-'.repeat(3)}final`;

/** The page's globals as seen from page.evaluate (this file compiles without DOM types). */
interface PageGlobal {
  location: { hash: string };
  document: { getElementById(id: string): { open?: boolean } | null };
}

interface Box {
  left: number;
  right: number;
}

describe.skipIf(!existsSync(CHROMIUM))('report figures as drawn', () => {
  it('draws intervals, keeps numbers on the chart beside long names, and opens a transcript from its link', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skillbridge-report-drawn-'));
    const db = openResults(dir, { durability: 'process' });
    syntheticAlrmRun(db, { model: LONG, variant: 'TaP', skill: 0.9, latency: 3, trials: 3, seed: 3 });
    syntheticAlrmRun(db, { model: 'ollama:qwen3:8b', variant: 'TaP', skill: 0.7, latency: 5, trials: 3, seed: 4 });
    db.close();
    const runs = loadRuns([dir]);
    const file = join(dir, 'report.html');
    const built = buildReport({
      runs,
      outFile: file,
      comparison: compareRuns(runs[0]!, runs[1]!),
      evidence: () => ({ entries: [{ kind: 'user', title: 'user', text: 'hello' }], problems: [], world: 'none' }),
    });
    writeFileSync(file, built.html);

    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(String(e)));
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('.chart[data-rendered]');
      const drawn = await page.$$eval('.chart', (cs) => cs.map((c) => ({ id: c.id, state: c.getAttribute('data-rendered') })));
      expect(drawn.every((c) => c.state === 'true')).toBe(true);

      // Every bar and every pass^k point with an interval has its whisker drawn.
      for (const c of built.charts) {
        if (c.kind !== 'bars' && c.kind !== 'passk') continue;
        const withIv = (c.data as Array<{ low?: number }>).filter((d) => d.low !== undefined).length;
        expect(withIv, c.id).toBeGreaterThan(0);
        const lines = await page.$$eval(`#${c.id} [aria-description="interval"] line`, (ls) => ls.length);
        expect(lines, c.id).toBeGreaterThanOrEqual(withIv);
      }

      // No text of a chart — a tick label, a number on a bar — lies outside the chart's own box.
      const outside = await page.$$eval('.chart svg', (svgs) =>
        svgs.flatMap((svg) => {
          const box = svg.getBoundingClientRect() as Box;
          return [...svg.querySelectorAll('text')]
            .filter((t) => t.textContent && t.getBoundingClientRect().width > 0)
            .filter((t) => {
              const b = t.getBoundingClientRect() as Box;
              return b.left < box.left - 1 || b.right > box.right + 1;
            })
            .map((t) => `${svg.parentElement?.id}: ${t.textContent}`);
        }),
      );
      expect(outside).toEqual([]);
      // The latency figure's long name is cut, its full name kept as the tooltip, and the plot keeps most of the width.
      const latency = built.charts.find((c) => c.kind === 'latency')!;
      const cut = await page.$$eval(`#${latency.id} text[data-full]`, (ts) => ts.map((t) => t.getAttribute('data-full')));
      expect(cut.some((f) => f?.includes(LONG))).toBe(true);
      const frame = await page.$eval(`#${latency.id}`, (chart) => {
        const svg = [...chart.querySelectorAll('svg')].sort(
          (a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width,
        )[0]!;
        const box = svg.getBoundingClientRect() as Box;
        const xs = [...svg.querySelectorAll('[aria-label="x-axis tick label"] text')].map((t) => t.getBoundingClientRect() as Box);
        return { from: Math.min(...xs.map((b) => b.left)) - box.left, width: box.right - box.left };
      });
      expect(frame.from).toBeLessThan(frame.width / 2);
      // Numbers are written on the comparison bars.
      const cmp = built.charts.find((c) => c.id.endsWith('model-comparison'))!;
      expect(await page.$$eval(`#${cmp.id} [aria-description="value"] text`, (ts) => ts.length)).toBe(
        cmp.kind === 'bars' ? cmp.data.length : 0,
      );

      const ids = await page.$$eval('[id]', (els) => els.map((e) => e.id));
      expect(ids.length).toBe(new Set(ids).size);

      // A case's link opens its transcript (inside two collapsed sections) and shows it.
      const link = page.locator('table.cases a[href^="#case-"]').first();
      const target = (await link.getAttribute('href'))!.slice(1);
      await page.evaluate((h) => ((globalThis as unknown as PageGlobal).location.hash = h), target);
      await page.waitForFunction((id) => (globalThis as unknown as PageGlobal).document.getElementById(id)?.open === true, target);
      expect(await page.locator(`[id="${target}"] > summary`).isVisible()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
