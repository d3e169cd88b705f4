// How the RAIDER suite refers to an action's argument (paper 001 §4.1.1): by its
// specific name (AS), its category (AN), a spatial relation (AR) or a state
// (AC), and how a query is worded: structured, "pick(blue mug)" (QS), or
// natural language (QU). Which objects a reference matches is computed from
// what the robot sees, so ambiguity and absence come out of the world.
import type { RaiderAction } from './gold';
import { CATEGORY_WORDS, type ObjInfo, type WorldInfo } from './world-info';

export type Abstraction = 'AS' | 'AN' | 'AR' | 'AC';

export interface Ref {
  /** The words of the argument ("blue mug", "fruit in the blue bowl"). */
  text: string;
  abstraction: Abstraction;
  /** Visible objects the words match. */
  matches: string[];
  /** When nothing visible matches: the object the words mean elsewhere in the scene (for the recovery). */
  elsewhere?: string;
  /** AC: the state the words name (a query acting on that same state would give its answer away). */
  state?: string;
}

/** The state an action sets or needs: "switch on the switched-on sink" names the very state it tests. */
export const ACTION_STATE: Record<string, string> = { open: 'open', close: 'open', turnon: 'on', turnoff: 'on', slice: 'sliced' };

const STATE_WORDS: Record<string, [string, string]> = {
  open: ['open', 'closed'],
  on: ['switched-on', 'switched-off'],
  dirty: ['dirty', 'clean'],
  sliced: ['sliced', 'unsliced'],
  filled: ['filled', 'empty'],
  cooked: ['cooked', 'raw'],
};

function uniqueBy<T>(xs: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return xs.filter((x) => (seen.has(key(x)) ? false : (seen.add(key(x)), true)));
}

/** Every way to refer to one argument in this world. */
export function references(w: WorldInfo): Ref[] {
  const vis = [...w.visible.values()].filter((o) => o.id !== w.held);
  const refs: Ref[] = [];
  const byName = (name: string) => vis.filter((o) => o.name.toLowerCase() === name || o.typeName.toLowerCase() === name).map((o) => o.id);
  // AS: the display name; a generic type name shared by several visible objects is ambiguous.
  for (const o of vis) {
    refs.push({ text: o.name, abstraction: 'AS', matches: byName(o.name.toLowerCase()) });
    if (o.typeName !== o.name) refs.push({ text: o.typeName, abstraction: 'AS', matches: byName(o.typeName.toLowerCase()) });
  }
  // AN: the category.
  for (const cat of new Set(vis.map((o) => o.category))) {
    const word = CATEGORY_WORDS[cat];
    if (word) refs.push({ text: word, abstraction: 'AN', matches: vis.filter((o) => o.category === cat).map((o) => o.id) });
  }
  // AR: what is in or on another object ("the fruit in the blue bowl", "the item on the cutting board").
  for (const c of vis) {
    for (const [rel, ids] of [
      ['in', c.inside],
      ['on', c.onTop],
    ] as const) {
      const there = ids.map((id) => w.visible.get(id)).filter((o): o is ObjInfo => o !== undefined && o.id !== w.held);
      for (const cat of new Set(there.map((o) => o.category))) {
        const word = CATEGORY_WORDS[cat] ?? 'item';
        refs.push({
          text: `${word} ${rel} the ${c.name}`,
          abstraction: 'AR',
          matches: there.filter((o) => o.category === cat).map((o) => o.id),
        });
      }
    }
  }
  // AC: a state ("the dirty mug", "the closed fridge").
  for (const o of vis) {
    for (const [k, v] of Object.entries(o.state)) {
      const words = STATE_WORDS[k];
      if (!words) continue;
      const word = v ? words[0] : words[1];
      refs.push({
        text: `${word} ${o.typeName}`,
        abstraction: 'AC',
        state: k,
        matches: vis.filter((x) => x.typeName === o.typeName && x.state[k] === v).map((x) => x.id),
      });
    }
  }
  // Not present here: objects of the kitchen the robot cannot see from where it stands, by name or by category.
  const seenNames = new Set(vis.flatMap((o) => [o.name.toLowerCase(), o.typeName.toLowerCase()]));
  const seenCats = new Set(vis.map((o) => o.category));
  for (const o of w.all.values()) {
    if (w.visible.has(o.id) || o.id === w.held) continue;
    if (!seenNames.has(o.name.toLowerCase())) refs.push({ text: o.name, abstraction: 'AS', matches: [], elsewhere: o.id });
    const word = CATEGORY_WORDS[o.category];
    if (word && !seenCats.has(o.category)) refs.push({ text: word, abstraction: 'AN', matches: [], elsewhere: o.id });
  }
  return uniqueBy(refs, (r) => `${r.abstraction}|${r.text.toLowerCase()}`);
}

const VERB: Record<RaiderAction, string> = {
  pick: 'pick up',
  place: 'put what you hold',
  open: 'open',
  close: 'close',
  turnon: 'turn on',
  turnoff: 'turn off',
  slice: 'slice',
};

/** Natural-language wordings, chosen by a stable index so the suite reads varied. */
const QU: Record<RaiderAction, Array<(r: string, prep: string) => string>> = {
  pick: [(r) => `Please pick up the ${r}.`, (r) => `Can you grab the ${r}?`, (r) => `Could you take the ${r} for me?`],
  place: [
    (r, p) => `Put what you are holding ${p} the ${r}.`,
    (r, p) => `Please place the object in your hand ${p} the ${r}.`,
    (r, p) => `Could you set what you're carrying down ${p} the ${r}?`,
  ],
  open: [(r) => `Please open the ${r}.`, (r) => `Can you open the ${r} for me?`, (r) => `Could you open up the ${r}?`],
  close: [(r) => `Please close the ${r}.`, (r) => `Can you shut the ${r}?`, (r) => `Could you close the ${r}, please?`],
  turnon: [(r) => `Turn on the ${r}, please.`, (r) => `Can you switch on the ${r}?`, (r) => `Please start the ${r}.`],
  turnoff: [(r) => `Turn off the ${r}, please.`, (r) => `Can you switch off the ${r}?`, (r) => `Please shut off the ${r}.`],
  slice: [(r) => `Please slice the ${r}.`, (r) => `Can you cut the ${r} into slices?`, (r) => `Could you slice up the ${r}?`],
};

/** A query as the person says it. */
export function phrase(action: RaiderAction, ref: Ref, query: 'QS' | 'QU', variantIndex: number, placeInto: boolean): string {
  if (query === 'QS') return `${action}(${ref.text})`;
  const forms = QU[action];
  return forms[variantIndex % forms.length]!(ref.text, placeInto ? 'in' : 'on');
}

export function verbOf(action: RaiderAction): string {
  return VERB[action];
}
