// Small tools and checks shared by the runtime tests (not part of the runtime API).
import { expect } from 'vitest';
import { z } from 'zod';
import type { ChatMessage } from '../../agents/models/model';
import type { Robot } from '../../robot/robot';
import { type Tool, defineTool } from '../../agents/tools/tool';

/** Enough of a Robot for tools that need no capabilities (and for a trace header). */
export const noRobot = { has: () => true, info: { name: 'test robot', scene: { id: 'test/none' } } } as unknown as Robot;

const card = { outputs: 'text', whenToUse: 'in tests', dimension: 'perception' as const };

export const look: Tool = defineTool({
  name: 'look',
  description: 'Says what the robot sees.',
  category: 'information',
  params: z.strictObject({}),
  card,
  execute: () => ({ ok: true, content: 'I see a lemon and a bowl.' }),
});

export const wave: Tool = defineTool({
  name: 'wave',
  description: 'Waves a hand.',
  category: 'action',
  params: z.strictObject({ hand: z.enum(['left', 'right']) }),
  card: { ...card, dimension: 'execution' },
  execute: ({ hand }) => ({ ok: true, content: `waved the ${hand} hand` }),
});

export const broken: Tool = defineTool({
  name: 'read_sensor',
  description: 'Reads a sensor.',
  category: 'information',
  params: z.strictObject({}),
  card,
  execute: () => {
    throw new Error('sensor offline');
  },
});

/** An action that runs until its signal aborts, then reports it stopped (a well-behaved skill). */
export const holdOn: Tool = defineTool({
  name: 'hold_on',
  description: 'Holds a pose until told to stop.',
  category: 'action',
  params: z.strictObject({}),
  card: { ...card, dimension: 'execution' },
  execute: (_a, { signal }) =>
    new Promise((resolve) => {
      const done = () => resolve({ ok: false, content: 'Failed (aborted): stopped while holding the pose.' });
      if (signal.aborted) done();
      else signal.addEventListener('abort', done, { once: true });
    }),
});

/** An action that ignores Stop and never finishes (a stuck driver). */
export const stuck: Tool = defineTool({
  name: 'stuck',
  description: 'Never returns.',
  category: 'action',
  params: z.strictObject({}),
  card: { ...card, dimension: 'execution' },
  execute: () => new Promise(() => undefined),
});

/** Every tool call is answered by a tool message right after its assistant turn (what OpenAI servers require). */
export function expectValidHistory(messages: readonly ChatMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== 'assistant' || !m.tool_calls?.length) continue;
    const answered = messages.slice(i + 1, i + 1 + m.tool_calls.length);
    expect(answered.map((a) => (a.role === 'tool' ? a.tool_call_id : `(${a.role})`))).toEqual(m.tool_calls.map((c) => c.id));
  }
}
