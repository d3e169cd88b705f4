// Which object a case means, said by where it is in the camera picture: the item
// furthest left, furthest right, the largest, the one nearest the middle. The
// gold comes from the headless camera's pixel labels (sim/perception/render.ts),
// the same picture the model is shown, so only a model that reads the picture
// can tell which object is meant; the instruction never names it. A reference
// is kept only when it is clear by a margin a person would agree with.
import { renderCamera } from '../../../sim/perception/render';
import type { SimControl } from '../../../robot/sim/control';
import type { ObjInfo } from '../raider/world-info';

/** Pixels of the label picture: small, because only where things are matters here. */
const W = 160;
const H = 120;
/** An item must cover this many label pixels to be referred to (about 0.3 % of the picture). */
const MIN_AREA = 60;

interface Seen {
  id: string;
  /** The colour a person would call its catalogue colour ("red"), or undefined when it sits between names. */
  colour: string | undefined;
  area: number;
  cx: number;
  cy: number;
}

/** Where each item is in the picture: its pixel count and centroid, for the items perception also sees. */
/** A colour's everyday name from its hex code: hue for saturated colours, lightness for the rest. */
export function colourWord(hex: string): string | undefined {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return undefined;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((x) => parseInt(x, 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const sat = max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
  if (sat < 0.25 || max - min < 0.12) return l > 0.8 ? 'white' : l < 0.2 ? 'black' : l > 0.35 && l < 0.65 ? 'grey' : undefined;
  let h = max === r ? ((g - b) / (max - min)) % 6 : max === g ? (b - r) / (max - min) + 2 : (r - g) / (max - min) + 4;
  h = (h * 60 + 360) % 360;
  // Dark oranges and reds read as brown.
  if (h >= 15 && h < 45 && l < 0.45) return 'brown';
  if (h < 15 || h >= 340) return 'red';
  if (h < 45) return 'orange';
  if (h < 70) return 'yellow';
  if (h < 165) return 'green';
  if (h < 255) return 'blue';
  if (h < 290) return 'purple';
  return 'pink';
}

export function pictureLayout(control: SimControl, items: readonly ObjInfo[]): Seen[] {
  return pictureOf(control, items).layout;
}

/** One picture: where its items are (those covering MIN_AREA), and every entity with a pixel in it at all. */
export interface Picture {
  layout: Seen[];
  any: ReadonlySet<string>;
}

export function pictureOf(control: SimControl, items: readonly ObjInfo[]): Picture {
  const img = renderCamera(control.world, { width: W, height: H });
  const want = new Set(items.map((o) => o.id));
  const acc = new Map<string, { n: number; x: number; y: number }>();
  const any = new Set<string>();
  img.labels.forEach((id, i) => {
    any.add(id);
    if (!want.has(id)) return;
    const a = acc.get(id) ?? { n: 0, x: 0, y: 0 };
    a.n++;
    a.x += i % W;
    a.y += Math.floor(i / W);
    acc.set(id, a);
  });
  const layout = [...acc.entries()]
    .filter(([, a]) => a.n >= MIN_AREA)
    .map(([id, a]) => {
      const spec = control.world.entities.get(id)?.spec;
      return { id, colour: spec ? colourWord(spec.color) : undefined, area: a.n, cx: a.x / a.n, cy: a.y / a.n };
    })
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  return { layout, any };
}

interface Rule {
  key: string;
  phrase: string;
  /** Smaller is more so; the first item wins when it leads the second by `margin`. */
  measure(s: Seen): number;
  margin: number;
}

const RULES: readonly Rule[] = [
  { key: 'left', phrase: 'the item furthest to the left', measure: (s) => s.cx, margin: W * 0.1 },
  { key: 'right', phrase: 'the item furthest to the right', measure: (s) => -s.cx, margin: W * 0.1 },
  { key: 'largest', phrase: 'the item that looks largest', measure: (s) => -s.area, margin: 0 },
  {
    key: 'middle',
    phrase: 'the item nearest the middle',
    measure: (s) => Math.hypot(s.cx - W / 2, s.cy - H / 2),
    margin: W * 0.08,
  },
];

/** "nearest the middle of the first picture"; of a subset, the middle of its picture. */
const middleOf = (where: string) =>
  where.startsWith('in ') ? `the item nearest the middle of ${where.slice(3)}` : `the item nearest the middle of its picture, ${where}`;

export interface PictureRef {
  /** A short key for case ids ("left", "largest"). */
  key: string;
  /** How the instruction refers to the object ("the item furthest to the left in the picture"). */
  phrase: string;
  id: string;
}

/**
 * The references that single out one item clearly, one per item: a colour only it
 * has among the items in the picture, else the first rule that picks it — the
 * item that leads the runner-up by the rule's margin (the largest by half again
 * the runner-up's pixels).
 */
export function pictureRefs(layout: readonly Seen[], where = 'in the picture'): PictureRef[] {
  const out: PictureRef[] = [];
  if (layout.length < 2) return out;
  // A colour no other item in the picture has.
  for (const s of layout) {
    if (!s.colour || layout.some((x) => x !== s && x.colour === s.colour)) continue;
    out.push({ key: s.colour, phrase: `the ${s.colour} item ${where}`, id: s.id });
  }
  for (const r of RULES) {
    const [a, b] = [...layout].sort((x, y) => r.measure(x) - r.measure(y));
    const clear = r.key === 'largest' ? a!.area >= 1.5 * b!.area : r.measure(b!) - r.measure(a!) >= r.margin;
    if (!clear || out.some((o) => o.id === a!.id)) continue;
    out.push({ key: r.key, phrase: r.key === 'middle' ? middleOf(where) : `${r.phrase} ${where}`, id: a!.id });
  }
  return out;
}

const NEW = 'in the second picture but not in the first';
const GONE = 'in the first picture but not in the second';

/**
 * The references of a two-picture sample (before and after an action): the item
 * that came into view ("in the second picture but not in the first"), the one
 * that left it, each singled out among its kind by the rules above when there
 * are several, then the first picture's own references. An item counts as out
 * of a picture only when not one of its pixels is in it. One reference per item.
 */
export function twoPictureRefs(before: Picture, after: Picture): PictureRef[] {
  const subset = (set: readonly Seen[], where: string, key: string): PictureRef[] =>
    set.length === 1
      ? [{ key, phrase: `the item ${where}`, id: set[0]!.id }]
      : pictureRefs(set, `among the items ${where}`).map((r) => ({ ...r, key: `${key}-${r.key}` }));
  const refs = [
    ...subset(
      after.layout.filter((s) => !before.any.has(s.id)),
      NEW,
      'new',
    ),
    ...subset(
      before.layout.filter((s) => !after.any.has(s.id)),
      GONE,
      'gone',
    ),
    ...pictureRefs(before.layout, 'in the first picture').map((r) => ({ ...r, key: `first-${r.key}` })),
  ];
  return refs.filter((r, i) => refs.findIndex((x) => x.id === r.id) === i);
}
