import { describe, expect, it } from 'vitest';
import { simulatedUser } from './simulated-user';

const signal = new AbortController().signal;
const ask = (u: ReturnType<typeof simulatedUser>, question: string) => u({ id: 'a', question, stage: 'recovery', signal });

describe('the simulated user', () => {
  it('answers from a fixed list: keyed answers by the question, the rest in order, then the fallback', async () => {
    const u = simulatedUser({ answers: ['first', { when: 'knife', answer: 'on the counter' }, 'second'], fallback: 'no idea' });
    expect(await ask(u, 'Which mug?')).toEqual({ answer: 'first', by: 'simulated' });
    expect(await ask(u, 'Where is the KNIFE?')).toEqual({ answer: 'on the counter', by: 'simulated' });
    expect(await ask(u, 'Where is the knife now?')).toEqual({ answer: 'second', by: 'simulated' });
    expect(await ask(u, 'Anything else?')).toEqual({ answer: 'no idea', by: 'simulated' });
    expect(u.asked).toEqual(['Which mug?', 'Where is the KNIFE?', 'Where is the knife now?', 'Anything else?']);
  });

  it('asks the ground-truth callback first, the list when it has no answer', async () => {
    const u = simulatedUser({
      truth: ({ question, asked }) => (/medicine/.test(question) ? `the one by the plant (#${asked})` : undefined),
      answers: [/where/i.test('x') ? 'never' : 'from the list'],
    });
    expect((await ask(u, 'Which medicine is yours?')).answer).toBe('the one by the plant (#1)');
    expect((await ask(u, 'Where are you?')).answer).toBe('from the list');
    expect((await ask(u, 'And now?')).answer).toBe("I don't know.");
  });
});
