// World-model poses are judged by value and by frame: any signed permutation
// of the base frame's axes (a swap, a mirror) and any offset beyond the 2 cm
// tolerance is a lie, and the pose as the robot perceived it never is. The
// generator draws the object, the axes and the offset.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildToolSet } from '../../agents/tools/sets';
import { openSim } from '../../robot/sim/open';
import type { SimControl } from '../../robot/sim/control';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { type CallUnderCheck, type Unjudged, checkCall } from './check';
import { ScriptRunner } from './script';
import { readWorld } from './truth';

const POSE = /^(\S+): position \{"x":(-?[\d.]+),"y":(-?[\d.]+),"z":(-?[\d.]+)\} \(base frame\), (.+)$/;
const TOLERANCE = 0.02;

let control: SimControl;
/** Each perceived object's pose answer, as the tool gave it. */
const answers = new Map<string, RegExpExecArray>();

beforeAll(async () => {
  const opened = await openSim('tabletop/fruits', { seed: 1 });
  control = opened.control;
  const reg = await buildToolSet('world-model', opened.robot);
  const runner = new ScriptRunner(opened.robot, control, async (n) => reg.get(n));
  for (const id of ['lemon_1', 'bowl_1', 'cup_1', 'peach_1', 'plum_1', 'strawberry_1']) {
    const r = await runner.step({ tool: 'get_object_poses', args: { object_name: id } });
    const m = POSE.exec(r.result?.content ?? '');
    if (m) answers.set(id, m);
  }
}, 60_000);

afterAll(() => control?.dispose());

function judge(text: string): string[] {
  const w = control.world;
  const r = readWorld(w);
  const known = new Set([...w.entities.values()].filter((e) => e.fixed || w.belief.has(e.id)).map((e) => e.id));
  const c: CallUnderCheck = {
    world: w,
    set: 'world-model',
    tool: 'get_object_poses',
    args: {},
    result: { ok: true, content: text },
    thrown: undefined,
    before: r,
    after: r,
    knownBefore: known,
    knownAfter: known,
    learnt: known,
    peopleSeen: new Set(),
    mentioned: new Set(),
    movedByEvent: new Set(),
    beliefBefore: new Map(w.belief.objects),
    ended: r.time,
    eventsBefore: w.events.lastId,
    eventsRead: w.events.lastId,
    recognised: new Set(),
    added: new Map(),
    props: new Map(),
    paths: new Map(),
  };
  const skipped: Unjudged[] = [];
  const f = checkCall(c, new Map(), skipped);
  expect(skipped).toEqual([]);
  return f.map((x) => `${x.class}: ${x.detail}`);
}

const PERMUTATIONS = [
  [0, 1, 2],
  [1, 0, 2],
  [0, 2, 1],
  [2, 1, 0],
  [1, 2, 0],
  [2, 0, 1],
] as const;

describe('world-model poses by value and frame (generated)', () => {
  it('every perceived object has a pose answer', () => {
    expect([...answers.keys()].length).toBeGreaterThanOrEqual(4);
  });

  it('a signed permutation of the axes plus an offset is a lie exactly when the point moves beyond the tolerance', () => {
    const ids = [...answers.keys()];
    fc.assert(
      fc.property(
        fc.constantFrom(...ids),
        fc.constantFrom(...PERMUTATIONS),
        fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
        fc.tuple(
          fc.double({ min: -0.3, max: 0.3, noNaN: true }),
          fc.double({ min: -0.3, max: 0.3, noNaN: true }),
          fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        ),
        fc.boolean(),
        (id, perm, flip, offset, still) => {
          const m = answers.get(id)!;
          const p = [Number(m[2]), Number(m[3]), Number(m[4])];
          const said = perm.map((k, i) => Math.round(((flip[i] ? -1 : 1) * p[k]! + (still ? 0 : offset[i]!)) * 1000) / 1000);
          const off = Math.max(...said.map((v, i) => Math.abs(v - p[i]!)));
          // Too close to the tolerance to call either way (the tool rounds to the millimetre).
          fc.pre(Math.abs(off - TOLERANCE) > 0.002);
          const text = `${id}: position ${JSON.stringify({ x: said[0], y: said[1], z: said[2] })} (base frame), ${m[5]}`;
          const f = judge(text);
          if (off > TOLERANCE) expect(f).toEqual([expect.stringMatching(new RegExp(`^lies: get_object_poses: .*${id}'s pose`))]);
          else expect(f).toEqual([]);
        },
      ),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(35) },
    );
  });

  it('the pose as perceived is never a lie', () => {
    for (const m of answers.values()) expect(judge(m[0])).toEqual([]);
  });
});
