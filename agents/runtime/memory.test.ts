// A conversation kept across turns keeps the pictures of earlier tool results:
// a turn that ended without an answer right after a picture, and a stage whose
// request itself carries a picture, leave it in the history the next turn sends
// (older ones are detached with a note by dropOlderPictures, never dropped unsaid).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { answer, call, FakeModel } from '../../test/support/fake-model';
import { look } from '../../test/support/runtime-tools';
import { openSimRobot } from '../../robot/sim/open';
import type { ChatMessage, ImagePart } from '../models/model';
import { CAMERA_TOOL } from '../tools/camera';
import { loopWorkflow } from '../workflows/kit/loop';
import { Conversation } from './conversation';
import { Memory } from './memory';

const seeing = loopWorkflow({
  id: 'test/seeing',
  title: 'seeing',
  description: 'look, with the camera',
  systemPrompt: () => 'sys',
  tools: () => [look],
  limits: { timeLimitMs: null },
});

const pictures = (ms: readonly ChatMessage[]): number => ms.reduce((n, m) => n + (m.role === 'user' ? (m.images?.length ?? 0) : 0), 0);
const png: ImagePart = { mimeType: 'image/png', data: 'iVBORw0KGgo=', width: 4, height: 3 };

describe('memory keeps pictures across turns', () => {
  it('a turn that ended without an answer after a picture: the next turn still sends it', async () => {
    const model = Object.assign(new FakeModel([call(CAMERA_TOOL, { width: 32 }), answer('A lemon.')]), { input: 'images' as const });
    const robot = await openSimRobot('tabletop/fruits', { seed: 1 });
    const s = await Conversation.open({ model, workflow: seeing, openRobot: async () => robot });
    {
      const t1 = await s.send('Look at the table.', { limits: { maxIterations: 1 } });
      expect(t1.reason).toBe('max_iterations');
      const t2 = await s.send('What did you see?');
      expect(t2.final).toBe('A lemon.');
      const sent = model.requests[1]!.messages;
      expect(pictures(sent)).toBe(1);
      // The picture stays after the tool message it belongs to, and the new request follows it.
      const at = sent.findIndex((m) => m.role === 'user' && m.images?.length);
      expect(sent[at - 1]!.role).toBe('tool');
      expect(sent.at(-1)!.content).toContain('What did you see?');
    }
  });

  it('a request that carries a picture keeps it in the stage memory', () => {
    const m = new Memory('sys');
    m.begin('What is this?', [png]);
    expect(pictures(m.messages)).toBe(1);
    // A turn that ended at once leaves its request last: the next request joins it, picture and all.
    m.begin('And now?');
    expect(m.messages.map((x) => x.role)).toEqual(['system', 'user']);
    expect(pictures(m.messages)).toBe(1);
    expect(m.messages[1]!.content).toBe('What is this?\n\nAnd now?');
  });

  it('a turn that ended without an answer drops its warnings but not its pictures', () => {
    const m = new Memory(undefined);
    const start = m.begin('look');
    m.messages.push(
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: CAMERA_TOOL, arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'Camera picture taken' },
      { role: 'user', content: 'The picture from get_camera_image (c1).', images: [png] },
      { role: 'user', content: 'Warning: time is nearly up.' },
    );
    m.endWithoutAnswer(start);
    expect(m.messages.map((x) => x.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(pictures(m.messages)).toBe(1);
  });
});

describe('memory never loses a picture (property)', () => {
  type Step = { k: 'begin'; images: number } | { k: 'tool-turn'; images: number; warnings: number } | { k: 'unanswered' } | { k: 'answer' };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({ k: fc.constant('begin' as const), images: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ k: fc.constant('tool-turn' as const), images: fc.integer({ min: 0, max: 2 }), warnings: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ k: fc.constant('unanswered' as const) }),
    fc.record({ k: fc.constant('answer' as const) }),
  );
  it('every picture given to it is still in the history, whatever turns end how', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 20 }), (steps) => {
        const m = new Memory('sys');
        let given = 0;
        let start = m.begin('first');
        for (const s of steps) {
          if (s.k === 'begin') {
            start = m.begin(
              'next',
              Array.from({ length: s.images }, () => png),
            );
            given += s.images;
          } else if (s.k === 'tool-turn') {
            m.messages.push({
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 'c', type: 'function', function: { name: CAMERA_TOOL, arguments: '{}' } }],
            });
            m.messages.push({ role: 'tool', tool_call_id: 'c', content: 'taken' });
            if (s.images) m.messages.push({ role: 'user', content: 'pictures', images: Array.from({ length: s.images }, () => png) });
            for (let i = 0; i < s.warnings; i++) m.messages.push({ role: 'user', content: 'warning' });
            given += s.images;
          } else if (s.k === 'unanswered') m.endWithoutAnswer(start);
          else m.messages.push({ role: 'assistant', content: 'done' });
        }
        expect(pictures(m.messages)).toBe(given);
      }),
      { numRuns: fuzzRuns(200), seed: fuzzSeed(40) },
    );
  });
});
