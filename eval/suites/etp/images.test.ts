// EmbodiedToolBench's image cases in evaluation: a scripted vision stand-in (the
// oracle's answers, given only once a picture is in its conversation) is sent the
// case's camera picture — the very picture the case's world gives — with the
// request, and solves the case; the same stand-in as a text model is sent no
// picture and solves nothing. The request never names the object it is about.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompletionRequest, Model } from '../../../agents/models/model';
import type { EvalCase } from '../../core/case';
import { WorldPool } from '../../core/world';
import { sampleCases } from '../../runner/cases';
import { runCase } from '../../runner/run-case';
import { findSuite } from '../index';
import { sharedSmallCases } from '../../../test/support/shared-cases';
import { typedModel } from '../../../test/support/host-refs';
import { EtpGold } from './gold';
import { colourWord, pictureRefs, twoPictureRefs } from './picture';
import { playPlan } from '../../core/play';
import { BETWEEN_SET } from './workflow';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-etp-images-'));
const pool = new WorldPool({ seed: 1 });
const suite = findSuite('etp-images')!;
let sample: EvalCase[];
afterAll(() => pool.dispose());
beforeAll(async () => {
  const small = await sharedSmallCases(suite);
  // Each task with one picture and with two.
  sample = ['1', '2'].flatMap((n) =>
    sampleCases(
      small.filter((c) => c.labels['images'] === n),
      4,
      1,
      'task',
    ),
  );
}, 300_000);

const pictures = (req: CompletionRequest) => req.messages.flatMap((m) => (m.role === 'user' ? (m.images ?? []) : []));

/** The oracle behind eyes: it answers only once its conversation holds a picture; `reads` says whether it is sent any. */
function standIn(reads: 'images' | 'text', seen: CompletionRequest[]) {
  return (inner: Model): Model => ({
    id: `vision-stand-in+${reads}`,
    input: reads,
    async complete(req) {
      seen.push(req);
      if (!pictures(req).length) return { message: { role: 'assistant', content: 'I cannot see the picture.' }, toolCalls: [] };
      return inner.complete(req);
    },
  });
}

async function play(c: EvalCase, reads: 'images' | 'text') {
  const seen: CompletionRequest[] = [];
  const r = await runCase({
    suite,
    case: c,
    trial: 1,
    workflow: suite.defaultWorkflow,
    ...typedModel('oracle'),
    seed: 1,
    pool,
    traceDir,
    wrapModel: standIn(reads, seen),
  });
  return { r, seen };
}

describe('etp-images in evaluation', () => {
  it('sends a model that sees the case world camera picture with the request, and it solves each task', async () => {
    expect(new Set(sample.map((c) => c.labels['task']))).toEqual(new Set(['need', 'selection', 'execution', 'chain']));
    for (const c of sample) {
      const { r, seen } = await play(c, 'images');
      expect(
        r.record.score,
        `${c.id}: ${r.record.error ?? ''} ${JSON.stringify(r.record.metrics)} ${JSON.stringify(seen.map((q) => q.messages.at(-1)))}`.slice(
          0,
          3000,
        ),
      ).toBe(1);
      const first = seen[0]!;
      const user = first.messages.find((m) => m.role === 'user')!;
      expect(user.content).toContain(c.instruction);
      const imgs = pictures(first);
      const between = EtpGold.parse(c.gold).between;
      expect(imgs, `${c.id}: every picture of the sample`).toHaveLength(Number(c.labels['images']));
      expect(imgs).toHaveLength(between.length ? 2 : 1);
      for (const img of imgs) {
        expect(img.mimeType).toBe('image/png');
        expect([img.width, img.height]).toEqual([640, 480]);
      }
      const { robot, cw } = await pool.checkout(c.world);
      expect((await robot.camera.picture({ width: 640 })).data, `${c.id}: the picture of its world`).toBe(imgs[0]!.data);
      if (between.length) {
        expect(user.content).toContain('Two pictures from your camera follow');
        expect((await playPlan(robot, cw.control, BETWEEN_SET, between)).ok).toBe(true);
        expect((await robot.camera.picture({ width: 640 })).data, `${c.id}: the picture after its steps`).toBe(imgs[1]!.data);
        expect(imgs[1]!.data).not.toBe(imgs[0]!.data);
      }
    }
  }, 120_000);

  it('sends a text model no picture, and the stand-in then solves nothing', async () => {
    for (const c of sample) {
      const { r, seen } = await play(c, 'text');
      expect(seen.flatMap(pictures)).toEqual([]);
      expect(r.record.score, c.id).toBe(0);
    }
  }, 120_000);

  it('never names the object a case is about in its request', () => {
    for (const c of sample) for (const id of Object.values(EtpGold.parse(c.gold).argNames).flat()) expect(c.instruction).not.toContain(id);
  });
});

describe('picture references', () => {
  const at = (id: string, cx: number, area = 100, colour?: string) => ({ id, cx, cy: 60, area, colour });
  it('single out an item by a colour no other has, or by a clear lead in position or size', () => {
    expect(pictureRefs([at('a', 10, 100, 'red'), at('b', 20, 100, 'blue'), at('c', 150, 100, 'blue')])).toEqual([
      { key: 'red', phrase: 'the red item in the picture', id: 'a' },
      { key: 'right', phrase: 'the item furthest to the right in the picture', id: 'c' },
    ]);
    // Two items close together at the left: neither is "furthest left" clearly.
    expect(pictureRefs([at('a', 10), at('b', 14), at('c', 80)]).map((r) => r.key)).toEqual(['right']);
    expect(pictureRefs([at('a', 10)])).toEqual([]);
  });
  it("single out in two pictures the item that came into view, the one that left it, then the first picture's", () => {
    const pic = (...xs: ReturnType<typeof at>[]) => ({ layout: xs, any: new Set(xs.map((x) => x.id)) });
    const refs = twoPictureRefs(pic(at('a', 10), at('b', 150)), pic(at('b', 20), at('c', 80)));
    expect(refs).toEqual([
      { key: 'new', phrase: 'the item in the second picture but not in the first', id: 'c' },
      { key: 'gone', phrase: 'the item in the first picture but not in the second', id: 'a' },
      { key: 'first-right', phrase: 'the item furthest to the right in the first picture', id: 'b' },
    ]);
    // Two came into view: each is told apart among them; a sliver in the first picture is not "new".
    const two = twoPictureRefs({ layout: [at('a', 10)], any: new Set(['a', 'd']) }, pic(at('c', 10), at('e', 150), at('d', 80)));
    expect(two.filter((r) => r.key.startsWith('new'))).toEqual([
      { key: 'new-left', phrase: 'the item furthest to the left among the items in the second picture but not in the first', id: 'c' },
      { key: 'new-right', phrase: 'the item furthest to the right among the items in the second picture but not in the first', id: 'e' },
    ]);
  });
  it('name colours as a person would', () => {
    expect([colourWord('#d03030'), colourWord('#2a5bd7'), colourWord('#f5f5f5'), colourWord('#202020'), colourWord('#6b4423')]).toEqual([
      'red',
      'blue',
      'white',
      'black',
      'brown',
    ]);
  });
});
