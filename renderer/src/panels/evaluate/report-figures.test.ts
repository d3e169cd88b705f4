// @vitest-environment happy-dom
// The report as the app opens it: figures drawn as SVG in place, no script left
// (the app's content security policy would block it), a bad figure description named.
import { describe, expect, it } from 'vitest';
import { drawnReport } from './report-figures';

const CHARTS = [
  {
    id: 'alrm-categories',
    kind: 'bars',
    title: 'Score by category',
    caption: '',
    xLabel: 'Category',
    yLabel: 'Score',
    groups: ['CAN', 'LEX'],
    series: ['oracle'],
    data: [
      { group: 'CAN', series: 'oracle', value: 1, n: 2 },
      { group: 'LEX', series: 'oracle', value: 0.5, n: 2 },
    ],
  },
  {
    id: 'alrm-latency',
    kind: 'latency',
    title: 'Latency',
    caption: '',
    series: ['oracle'],
    data: [{ series: 'oracle', seconds: 1.5, caseId: 'a' }],
  },
];

const page = (charts: unknown) => `<!doctype html><html><head><title>r</title></head><body><main>
<div class="chart" id="alrm-categories"><noscript>Figures need JavaScript</noscript></div>
<div class="chart" id="alrm-latency"></div></main>
<script type="application/json" id="chart-data">${JSON.stringify(charts)}</script>
<script data-lib="d3">window.d3 = {}</script><script>drawEverything()</script></body></html>`;

describe('drawnReport', () => {
  it('draws every figure as SVG marks in place and leaves no script to run', async () => {
    const html = await drawnReport(page(CHARTS));
    // (Read as text: happy-dom does not parse an SVG with a <style> inside back reliably.)
    const bars = html.slice(html.indexOf('id="alrm-categories"'), html.indexOf('id="alrm-latency"'));
    const latency = html.slice(html.indexOf('id="alrm-latency"'));
    expect(bars).toMatch(/^id="alrm-categories" data-rendered="true"><svg/);
    // Two bars, one per category.
    expect(bars.match(/<rect\b/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(latency).toMatch(/^id="alrm-latency" data-rendered="true"><svg/);
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="application/json" id="chart-data">']);
  });

  it("draws each bar's interval where it has one, and cuts a long run name on an axis", async () => {
    const lines = (html: string) =>
      html.slice(html.indexOf('id="alrm-categories"'), html.indexOf('id="alrm-latency"')).match(/<line\b/g)?.length ?? 0;
    const bare = await drawnReport(page(CHARTS));
    const long = 'openai:a-checkpoint-with-a-very-long-name-that-goes-on-and-on';
    const withIv = [
      {
        ...CHARTS[0],
        data: [
          { group: 'CAN', series: 'oracle', value: 1, n: 2, low: 0.8, high: 1 },
          { group: 'LEX', series: 'oracle', value: 0.5, n: 2, low: 0.3, high: 0.7 },
        ],
      },
      { ...CHARTS[1], series: [long], data: [{ series: long, seconds: 1.5, caseId: 'a' }] },
    ];
    const drawn = await drawnReport(page(withIv));
    expect(lines(drawn) - lines(bare)).toBe(2);
    expect(drawn).toContain(`${long.slice(0, 33)}…`);
    expect(drawn).not.toContain(`>${long}<`);
  });

  it('names a figure whose description does not parse and draws the rest', async () => {
    const bad = [{ ...CHARTS[0], data: [{ group: 'CAN', series: 'oracle', value: 'high', n: 2 }] }, CHARTS[1]];
    const html = await drawnReport(page(bad));
    expect(html).toMatch(/A figure was left out: its description did not parse \(chart 1: data\.0\.value\)/);
    expect(html).toMatch(/id="alrm-latency" data-rendered="true"><svg/);
  });
});
