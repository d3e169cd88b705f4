// Robot descriptions mutated by fast-check: the fixtures' text with spans cut,
// repeated or swapped and attribute values replaced by odd numbers and names.
// Invariants: loading ends in a report or a RobotFileError (bad input, one line),
// never another exception; every problem names its element, the problem and a
// fix; the description is the file's own robot (its name), never another; every
// number in it is finite.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RobotFileError, loadRobot } from '../../scenes/urdf/load';
import { robotFiles } from '../support/robot-files';
import { fuzzRuns, fuzzSeed } from './support/budget';

const ROBOTS = join(import.meta.dirname, '../fixtures/robots');
const SOURCES = ['ur5e_like/urdf/ur5e_like.urdf', 'panda_like/panda_like.urdf', 'broken/broken.urdf'].map((f) =>
  readFileSync(join(ROBOTS, f), 'utf8'),
);
const ODD = [
  '',
  ' ',
  'nan',
  'NaN',
  'inf',
  '-1e999',
  '1e-320',
  '0 0',
  '1 2 3 4',
  '-0',
  'package://',
  'package://x/../../etc/passwd',
  '../../../etc/hosts',
  'world',
  'base_link',
  'joint1',
  '&amp;',
  '${x}',
];

type Edit = { kind: 'cut' | 'dup' | 'attr'; at: number; len: number; value: string };
const edit = fc.record({
  kind: fc.constantFrom('attr', 'attr', 'attr', 'cut', 'dup'), // mostly values: a cut usually breaks the XML
  at: fc.nat(),
  len: fc.integer({ min: 1, max: 80 }),
  value: fc.oneof(fc.constantFrom(...ODD), fc.string({ maxLength: 6 })),
}) as fc.Arbitrary<Edit>;

function apply(src: string, e: Edit): string {
  const at = e.at % (src.length + 1);
  if (e.kind === 'cut') return src.slice(0, at) + src.slice(at + e.len);
  if (e.kind === 'dup') return src.slice(0, at) + src.slice(at, at + e.len) + src.slice(at);
  // Replace the value of the attribute after `at`.
  const m = /="[^"]*"/g;
  m.lastIndex = at;
  const hit = m.exec(src) ?? /="[^"]*"/.exec(src);
  if (!hit) return src;
  return `${src.slice(0, hit.index)}="${e.value.replace(/"/g, '&quot;').replace(/</g, '&lt;')}"${src.slice(hit.index + hit[0].length)}`;
}

const finiteEverywhere = (v: unknown): boolean =>
  typeof v === 'number'
    ? Number.isFinite(v)
    : Array.isArray(v)
      ? v.every(finiteEverywhere)
      : v !== null && typeof v === 'object'
        ? Object.values(v).every(finiteEverywhere)
        : true;

describe('URDF loading, fuzzed', () => {
  it("mutated fixtures: a report or bad input, problems on elements, the file's own robot, finite numbers", () => {
    const dir = mkdtempSync(join(tmpdir(), 'sb-fuzz-urdf-'));
    const file = join(dir, 'fuzzed.urdf');
    let reports = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.nat({ max: SOURCES.length - 1 }), fc.array(edit, { minLength: 1, maxLength: 4 }), (k, edits) => {
        const text = edits.reduce(apply, SOURCES[k]!);
        writeFileSync(file, text);
        let r;
        try {
          r = loadRobot(robotFiles(file, [ROBOTS]));
        } catch (e) {
          expect(e).toBeInstanceOf(RobotFileError);
          expect((e as Error).message).not.toContain('\n');
          refused++;
          return;
        }
        reports++;
        for (const p of r.problems) {
          expect(p.element.length).toBeGreaterThan(0);
          expect(p.problem.length).toBeGreaterThan(0);
          expect(p.fix.length).toBeGreaterThan(0);
        }
        if (r.description) {
          const own = /<robot\s+name="([^"]*)"/.exec(text)?.[1];
          if (own !== undefined && !own.includes('&')) expect(r.description.name).toBe(own);
          expect(finiteEverywhere(r.description)).toBe(true);
          // Without an error, the description is whole: its root and every joint's links are links of it.
          if (!r.problems.some((p) => p.severity === 'error')) {
            const links = new Set(r.description.links.map((l) => l.name));
            expect(links.has(r.description.root)).toBe(true);
            for (const j of r.description.joints) expect(links.has(j.parent) && links.has(j.child)).toBe(true);
          }
        }
        for (const m of r.meshes.values()) expect(m.file.startsWith(ROBOTS) || m.file.startsWith(dir)).toBe(true);
      }),
      { numRuns: fuzzRuns(150), seed: fuzzSeed(39) },
    );
    console.log(`urdf-load fuzz: ${reports} reports, ${refused} refused as bad input`);
    expect(reports).toBeGreaterThan(0);
  });
});
