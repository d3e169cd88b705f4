// The field rover's readings: a scan lists every plant within reach of the
// point of interest, each with what the plant truly is and shows (the scene's
// crop, growth stage, height, health and symptoms; a vegetation index in the
// band its health gives), and the battery its true charge and level.
import type { Judge, Rule } from './check-read';
import { ID, NUM } from './check-judge';

/** Within this distance of the point of interest a plant is scanned (metres). */
const SCAN_RADIUS = 5;
/** Vegetation index bands per declared health. */
const NDVI_BAND: Record<string, [number, number]> = { healthy: [0.65, 0.85], stressed: [0.42, 0.58], diseased: [0.2, 0.38] };

function plantsNear(j: Judge, poi: string): { sure: Set<string>; edge: Set<string> } {
  const w = j.c.world;
  const l = w.locations.get(poi)!;
  const [x, y, z] = l.pose.position;
  const sure = new Set<string>();
  const edge = new Set<string>();
  for (const e of w.entities.values()) {
    if (e.spec.category !== 'plant') continue;
    const b = j.c.after.bodies.get(e.id);
    if (!b) continue;
    const d = Math.hypot(b.pos.x - x, b.pos.y - y, b.pos.z - z);
    if (d < SCAN_RADIUS - 0.01) sure.add(e.id);
    else if (d < SCAN_RADIUS + 0.01) edge.add(e.id);
  }
  return { sure, edge };
}

/** One reading: "tomato_1 (tomato, fruiting, NDVI 0.71, 90 cm, healthy)" or with ": symptoms". */
function reading(j: Judge, text: string): string | undefined {
  const m = new RegExp(`^(${ID}) \\((.+)\\)$`).exec(text);
  if (!m) return void j.unread(text);
  const id = m[1]!;
  const e = j.c.world.entities.get(id);
  if (!e || e.spec.category !== 'plant') return void j.lie(`scanned ${id}, which is no plant in the scene`);
  const a = e.spec.attributes;
  const inner = m[2]!;
  const health = /, (healthy|stressed|diseased)(?:: (.+))?$/.exec(inner);
  if (!health) return void j.unread(text);
  const head = inner.slice(0, health.index).split(', ');
  const f = new RegExp(`^NDVI (${NUM})$`).exec(head[head.length - 2] ?? '');
  const h = /^(\d+(?:\.\d+)?) cm$/.exec(head[head.length - 1] ?? '');
  if (!f || !h) return void j.unread(text);
  const crop = head[0];
  const stage = head.length === 4 ? head[1] : undefined;
  const wantCrop = String(a['crop'] ?? e.spec.name);
  if (crop !== wantCrop) j.lie(`read ${id} as ${crop}, but it is ${wantCrop}`);
  const wantStage = a['growth_stage'] === undefined || a['growth_stage'] === '' ? undefined : String(a['growth_stage']);
  if (stage !== wantStage) j.lie(`read ${id}'s growth stage as ${stage ?? 'none'}, but it is ${wantStage ?? 'not given'}`);
  if (typeof a['height_cm'] === 'number' && Number(h[1]) !== a['height_cm'])
    j.lie(`read ${id} as ${h[1]} cm tall, but it is ${a['height_cm']} cm`);
  const ndvi = Number(f[1]);
  const declared = typeof a['health'] === 'string' ? a['health'] : undefined;
  const noise = j.c.world.noise.distanceSigma ? 0.09 : 0.006;
  const band = declared ? NDVI_BAND[declared] : undefined;
  if (band && (ndvi < band[0] - noise || ndvi > band[1] + noise))
    j.lie(`read ${id}'s NDVI as ${ndvi}, outside the ${declared} band ${band.join('–')}`);
  const wantHealth = declared ?? (ndvi >= 0.6 ? 'healthy' : ndvi >= 0.4 ? 'stressed' : 'diseased');
  if (health[1] !== wantHealth) j.lie(`read ${id} as ${health[1]}, but it is ${wantHealth}`);
  const symptoms = a['symptoms'] === undefined || a['symptoms'] === '' ? 'none' : String(a['symptoms']);
  if ((health[2] ?? 'none') !== symptoms) j.lie(`read ${id}'s symptoms as "${health[2] ?? 'none'}", but they are "${symptoms}"`);
  return id;
}

/** A scan at a point of interest: where the robot stands, how many plants, and each reading. */
export function readScan(j: Judge, poi: string, count: number, list: string | undefined): void {
  const l = j.c.world.locations.get(poi);
  if (!l || l.kind !== 'poi') return void j.lie(`scanned ${poi}, which is no point of interest`);
  const b = j.c.after.base.pos;
  const d = Math.hypot(b.x - l.pose.position[0], b.z - l.pose.position[2]);
  if (d > 0.2) j.lie(`scanned ${poi}, but the base stands ${d.toFixed(2)} m from it`);
  const items = list ? list.split(/; (?=[a-z][a-z0-9_]* \()/) : [];
  if (items.length !== count) j.message(`said ${count} plants but listed ${items.length}`);
  const ids = items.map((t) => reading(j, t)).filter((x): x is string => Boolean(x));
  const near = plantsNear(j, poi);
  for (const id of near.sure) if (!ids.includes(id)) j.lie(`left ${id} out of the scan at ${poi}, ${SCAN_RADIUS} m or nearer`);
  for (const id of ids)
    if (!near.sure.has(id) && !near.edge.has(id)) j.lie(`scanned ${id} at ${poi}, farther than ${SCAN_RADIUS} m from it`);
}

/**
 * How far a whole percent may stray from the charge: the robot reads it to 0.1 % and the tools
 * round that reading (2.46 % reads 2.5 %, said "3%").
 */
export const PERCENT_SAID = 0.5 + 0.05 + 1e-6;

/** The battery's charge and level (with the scene's thresholds), docked and charging. */
export const BATTERY_RULES: readonly Rule[] = [
  [
    /Battery (\d+)% \((okay|low|critical|empty); low at (\d+(?:\.\d+)?)%, critical at (\d+(?:\.\d+)?)%\)(, docked)?(, charging)?\./,
    (m, j) => {
      const c = j.c;
      const pct = c.after.batteryPercent;
      const t = c.world.scene.scene.robot.battery;
      // Read during the call: between the charge as it began and as the world came to rest.
      const lo = Math.min(c.before.batteryPercent, pct);
      const hi = Math.max(c.before.batteryPercent, pct);
      if (Number(m[1]) < lo - PERCENT_SAID || Number(m[1]) > hi + PERCENT_SAID)
        j.lie(`said the battery is at ${m[1]}%, but it was at ${lo.toFixed(2)}–${hi.toFixed(2)}%`);
      if (Number(m[3]) !== t.low || Number(m[4]) !== t.critical)
        j.lie(`gave thresholds ${m[3]}%/${m[4]}%, but they are ${t.low}%/${t.critical}%`);
      batteryLevel(j, m[2]!, c.before.batteryPercent, pct);
      if (Boolean(m[5]) !== c.after.docked)
        j.lie(`said the robot is ${m[5] ? '' : 'not '}docked, but it is ${c.after.docked ? '' : 'not '}docked`);
      if (Boolean(m[6]) !== c.world.battery.charging)
        j.lie(`said the battery is ${m[6] ? '' : 'not '}charging, but it is ${c.world.battery.charging ? '' : 'not '}`);
    },
  ],
];

/** A battery level word against the charge (any it had from `pct` to `pct2`): empty at 0, critical at or below its threshold, low at or below its own. */
export function batteryLevel(j: Judge, level: string, pct: number, pct2 = pct): void {
  const t = j.c.world.scene.scene.robot.battery;
  const of = (p: number): string => (p <= 0 ? 'empty' : p <= t.critical ? 'critical' : p <= t.low ? 'low' : 'okay');
  const [lo, hi] = [Math.min(pct, pct2), Math.max(pct, pct2)];
  const edge = [t.critical, t.low].some((x) => x >= lo - 0.01 && x <= hi + 0.01);
  if (level !== of(lo) && level !== of(hi) && !edge) j.lie(`said the battery is ${level}, but at ${lo.toFixed(2)}% it is ${of(lo)}`);
}
