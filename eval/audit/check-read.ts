// Reading a tool's text into claims. Every sentence an output holds must match
// one of the forms the checker knows; each form names what it claims and how it
// is judged (against the robot's belief where the tool answers from it, against
// the physics where it reports what the robot did or is). A sentence no form
// matches, or a claim the checker cannot decide, leaves the output unjudged:
// counted, never passed in silence.
import { type CallUnderCheck, type Finding, type ViolationClass, toolFamily } from './check-core';

export interface Judge {
  readonly c: CallUnderCheck;
  lie(detail: string): void;
  leak(detail: string): void;
  message(detail: string): void;
  /** A claim read but not decided (the world reading is unsure, the record is missing). */
  skip(reason: string): void;
  /** A sentence no form matches. */
  unread(part: string): void;
  /** A finding of any class. */
  add(f: Finding): void;
}

/** A sentence form: a regular expression over the whole sentence, and the judge of what it claims. */
export type Rule = readonly [RegExp, (m: RegExpExecArray, j: Judge) => void];

/** Judges one sentence by the first rule whose expression matches it whole; unread when none does. */
export function readOne(j: Judge, text: string, rules: readonly Rule[]): boolean {
  for (const [re, judge] of rules) {
    const m = new RegExp(`^(?:${re.source})$`, re.flags.replace('g', '')).exec(text);
    if (m) {
      judge(m, j);
      return true;
    }
  }
  j.unread(text);
  return false;
}

/** Judges each part of a text split by a separator (a list of facts, lines, clauses). */
export function readEach(j: Judge, parts: readonly string[], rules: readonly Rule[]): void {
  for (const p of parts) readOne(j, p, rules);
}

/** A text's shape for counting unread sentences by kind: ids, numbers and quotes made generic. */
export function shapeOf(text: string, ids: readonly string[]): string {
  let s = text.replace(/"[^"]*"/g, '"…"');
  const byLength = [...ids].sort((a, b) => b.length - a.length);
  for (const id of byLength) s = s.replace(new RegExp(`(?<![a-z0-9_])${id}(?![a-z0-9_])`, 'g'), 'ID');
  return s.replace(/-?\d+(?:\.\d+)?/g, 'N').slice(0, 160);
}

/** A judge that collects findings and what it could not judge. */
export function makeJudge(c: CallUnderCheck, out: Finding[], skip: (cls: ViolationClass, reason: string) => void): Judge {
  const ids = [...c.world.entities.keys(), ...c.world.people.keys(), ...c.world.locations.keys()];
  const add = (cls: ViolationClass) => (detail: string) => {
    if (process.env['AUDIT_DEBUG']) console.error(`FOUND ${c.tool}: ${detail} IN ${JSON.stringify(c.result?.content)}`);
    out.push({ class: cls, detail: `${c.tool}: ${detail}` });
  };
  return {
    c,
    lie: add('lies'),
    leak: add('leaks'),
    message: add('messages'),
    skip: (reason) => skip('lies', reason),
    unread: (part) => {
      if (process.env['AUDIT_DEBUG']) console.error(`UNREAD ${c.tool}: ${JSON.stringify(part)} IN ${JSON.stringify(c.result?.content)}`);
      skip('lies', `unread sentence in ${toolFamily(c.world, c.tool)}: "${shapeOf(part, ids)}"`);
    },
    add: (f) => void out.push(f),
  };
}
