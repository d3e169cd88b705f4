// The evaluation report as the app shows it: its figures drawn here, in the
// app's own window, with the Observable Plot the app bundles, and its scripts
// taken out. The report's own inline scripts cannot run where the app opens it
// (a blob: page and an in-app frame inherit the app's content security policy,
// which allows no inline script), so a page that relied on them had blank figures.
import { z } from 'zod';

const Base = { id: z.string(), title: z.string(), caption: z.string() };
const Chart = z.discriminatedUnion('kind', [
  z.object({
    ...Base,
    kind: z.literal('bars'),
    xLabel: z.string(),
    yLabel: z.string(),
    groups: z.array(z.string()),
    series: z.array(z.string()),
    data: z.array(
      z.object({
        group: z.string(),
        series: z.string(),
        value: z.number(),
        n: z.number(),
        low: z.number().optional(),
        high: z.number().optional(),
      }),
    ),
  }),
  z.object({
    ...Base,
    kind: z.literal('latency'),
    series: z.array(z.string()),
    data: z.array(z.object({ series: z.string(), seconds: z.number(), caseId: z.string() })),
  }),
  z.object({
    ...Base,
    kind: z.literal('passk'),
    series: z.array(z.string()),
    data: z.array(
      z.object({ series: z.string(), k: z.number(), value: z.number(), low: z.number().optional(), high: z.number().optional() }),
    ),
  }),
  z.object({
    ...Base,
    kind: z.literal('failures'),
    series: z.array(z.string()),
    classes: z.array(z.string()),
    data: z.array(z.object({ series: z.string(), failure: z.string(), count: z.number() })),
  }),
]);
export type ReportChart = z.infer<typeof Chart>;

type PlotModule = typeof import('@observablehq/plot');

const WIDTH = 820;
const font = { fontSize: '12px', fontFamily: 'inherit', overflow: 'visible' };
const colors = (domain: string[]) => ({ type: 'categorical' as const, scheme: 'tableau10' as const, domain, legend: domain.length > 1 });
const longest = (xs: string[]) => xs.reduce((m, x) => Math.max(m, x.length), 0);
/** A run's name longer than this is cut with an ellipsis on an axis, so the plot keeps its width. */
const LABEL = 34;
const clip = (n: number) => (x: unknown) => {
  const t = String(x);
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};
const left = (series: string[]) => Math.min(14 + 6.5 * LABEL, 14 + 6.5 * longest(series));
const withIv = <T extends { low?: number | undefined }>(data: T[]) => data.filter((d) => d.low !== undefined);

/** One chart as the report's own script draws it (eval/report/client.ts): same marks, same sizes. */
function draw(Plot: PlotModule, s: ReportChart, document: Document): Element {
  switch (s.kind) {
    case 'bars': {
      const many = s.series.length > 1;
      return Plot.plot({
        document,
        width: WIDTH,
        height: 320,
        style: font,
        marginBottom: 44,
        marginTop: 24,
        fx: {
          label: s.xLabel,
          domain: s.groups,
          padding: 0.15,
          tickFormat: clip(Math.max(8, Math.floor(WIDTH / Math.max(1, s.groups.length) / 7))),
        },
        x: { axis: many ? null : 'bottom', domain: s.series, label: null, tickFormat: () => '' },
        y: { label: s.yLabel, domain: [0, 1], grid: true },
        color: colors(s.series),
        marks: [
          Plot.barY(s.data, {
            fx: 'group',
            x: 'series',
            y: 'value',
            fill: 'series',
            title: (d: (typeof s.data)[number]) => `${d.series}\n${d.group}: ${d.value.toFixed(3)} (n = ${d.n})`,
          }),
          // Each bar's 95 % interval.
          Plot.ruleX(withIv(s.data), { fx: 'group', x: 'series', y1: 'low', y2: 'high', stroke: '#222', strokeWidth: 1.5 }),
          Plot.ruleY([0]),
        ],
      });
    }
    case 'latency':
      return Plot.plot({
        document,
        width: WIDTH,
        height: 70 + 46 * s.series.length,
        style: font,
        marginLeft: left(s.series),
        x: { label: 'Latency (s)', grid: true, nice: true, zero: true },
        y: { label: null, domain: s.series, tickFormat: clip(LABEL) },
        color: colors(s.series),
        marks: [
          Plot.boxX(s.data, { x: 'seconds', y: 'series', fill: 'series', fillOpacity: 0.25, stroke: 'series', r: 0 }),
          Plot.dot(s.data, {
            x: 'seconds',
            y: 'series',
            fill: 'series',
            r: 2.5,
            fillOpacity: 0.5,
            title: (d: (typeof s.data)[number]) => `${d.caseId}: ${d.seconds.toFixed(2)} s`,
          }),
        ],
      });
    case 'passk': {
      const K = s.data.reduce((m, d) => Math.max(m, d.k), 1);
      const ks = Array.from({ length: K }, (_, i) => i + 1);
      return Plot.plot({
        document,
        width: WIDTH,
        height: 300,
        style: font,
        marginTop: 24,
        x: { label: 'k (trials that must all succeed)', domain: [0.8, K + 0.2], ticks: ks, tickFormat: 'd' },
        y: { label: 'pass^k', domain: [0, 1], grid: true },
        color: colors(s.series),
        marks: [
          Plot.ruleX(withIv(s.data), { x: 'k', y1: 'low', y2: 'high', stroke: 'series', strokeOpacity: 0.55, strokeWidth: 3 }),
          Plot.line(s.data, { x: 'k', y: 'value', stroke: 'series', strokeWidth: 2 }),
          Plot.dot(s.data, {
            x: 'k',
            y: 'value',
            fill: 'series',
            r: 3.5,
            title: (d: (typeof s.data)[number]) => `${d.series}\npass^${d.k} = ${d.value.toFixed(3)}`,
          }),
        ],
      });
    }
    case 'failures':
      return Plot.plot({
        document,
        width: WIDTH,
        height: 70 + 40 * s.series.length,
        style: font,
        marginLeft: left(s.series),
        x: { label: 'Trials', grid: true },
        y: { label: null, domain: s.series, tickFormat: clip(LABEL) },
        color: { type: 'categorical', scheme: 'set2', domain: s.classes, legend: true },
        marks: [
          Plot.barX(s.data, {
            x: 'count',
            y: 'series',
            fill: 'failure',
            title: (d: (typeof s.data)[number]) => `${d.failure}: ${d.count}`,
          }),
          Plot.ruleX([0]),
        ],
      });
  }
}

/** The chart descriptions a report carries, each checked; one that does not parse is left out and named. */
export function reportCharts(doc: Document): { charts: ReportChart[]; refused: string[] } {
  const text = doc.getElementById('chart-data')?.textContent;
  if (!text) return { charts: [], refused: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { charts: [], refused: ['chart-data (not JSON)'] };
  }
  if (!Array.isArray(raw)) return { charts: [], refused: ['chart-data (not a list)'] };
  const charts: ReportChart[] = [];
  const refused: string[] = [];
  raw.forEach((c: unknown, i) => {
    const r = Chart.safeParse(c);
    if (r.success) charts.push(r.data);
    else refused.push(`chart ${i + 1}: ${r.error.issues.map((x) => x.path.join('.') || 'chart').join(', ')}`);
  });
  return { charts, refused };
}

/**
 * The report's HTML with every figure drawn in place as SVG and no script left,
 * so it shows the same wherever it is opened. A figure that cannot be drawn says so in place.
 */
export async function drawnReport(html: string, loadPlot: () => Promise<PlotModule> = () => import('@observablehq/plot')): Promise<string> {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const { charts, refused } = reportCharts(doc);
  const Plot = charts.length ? await loadPlot() : undefined;
  for (const s of charts) {
    const el = doc.getElementById(s.id);
    if (!el || !Plot) continue;
    try {
      el.replaceChildren(draw(Plot, s, doc));
      el.setAttribute('data-rendered', 'true');
    } catch (e) {
      el.textContent = `This chart could not be drawn: ${e instanceof Error ? e.message : String(e)}`;
      el.setAttribute('data-rendered', 'failed');
    }
  }
  for (const why of refused) {
    const p = doc.createElement('p');
    p.className = 'warning';
    p.textContent = `A figure was left out: its description did not parse (${why}).`;
    doc.querySelector('main')?.prepend(p);
  }
  for (const s of [...doc.querySelectorAll('script')]) if (s.type !== 'application/json') s.remove();
  return `<!doctype html>\n${doc.documentElement.outerHTML}`;
}
