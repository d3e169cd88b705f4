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
import { colourWord, pictureRefs } from './picture';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-etp-images-'));
const pool = new WorldPool({ seed: 1 });
const suite = findSuite('etp-images')!;
let sample: EvalCase[];
afterAll(() => pool.dispose());
beforeAll(async () => {
  sample = sampleCases(await sharedSmallCases(suite), 4, 1, 'task');
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
      const [img] = pictures(first);
      expect(img!.mimeType).toBe('image/png');
      expect([img!.width, img!.height]).toEqual([640, 480]);
      const { robot } = await pool.checkout(c.world);
      expect((await robot.camera.picture({ width: 640 })).data, `${c.id}: the picture of its world`).toBe(img!.data);
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
