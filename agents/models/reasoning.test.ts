import { describe, expect, it } from 'vitest';
import { splitThink, ThinkSplitter } from './reasoning';

describe('splitThink', () => {
  it('moves a leading <think> block out of the answer', () => {
    expect(splitThink('<think>\nThe lemon is near.\n</think>\n\nThe lemon is on the table.')).toEqual({
      text: 'The lemon is on the table.',
      reasoning: 'The lemon is near.',
    });
  });

  it('takes everything before a lone </think> as reasoning (the template wrote the opening tag)', () => {
    expect(splitThink('Need to look first.</think>I see a lemon.')).toEqual({ text: 'I see a lemon.', reasoning: 'Need to look first.' });
  });

  it('treats an unclosed block as reasoning with no answer (out of tokens while thinking)', () => {
    expect(splitThink('<think>Still thinking about')).toEqual({ text: '', reasoning: 'Still thinking about' });
  });

  it('leaves text alone when the tag is not at the start', () => {
    const s = 'Use <think> tags to reason.';
    expect(splitThink(s)).toEqual({ text: s, reasoning: '' });
  });
});

function run(chunks: string[]): { text: string; reasoning: string; textDeltas: string[] } {
  let text = '';
  let reasoning = '';
  const textDeltas: string[] = [];
  const sp = new ThinkSplitter(
    (d) => {
      text += d;
      textDeltas.push(d);
    },
    (d) => (reasoning += d),
  );
  for (const c of chunks) sp.push(c);
  sp.end();
  return { text, reasoning, textDeltas };
}

describe('ThinkSplitter', () => {
  it('routes a <think> block to reasoning even when the tags are split across chunks', () => {
    const r = run(['  <th', 'ink>Look', ' first.</th', 'ink>\n\nDo', 'ne.']);
    expect(r.reasoning).toBe('Look first.');
    expect(r.text).toBe('Done.');
    expect(r.textDeltas.some((d) => d.includes('<'))).toBe(false);
  });

  it('passes text without a leading tag straight through, chunk by chunk', () => {
    const r = run(['Hel', 'lo <think> there']);
    expect(r.textDeltas).toEqual(['Hel', 'lo <think> there']);
    expect(r.reasoning).toBe('');
  });

  it('flushes a stream that ended inside the block as reasoning', () => {
    const r = run(['<think>half a tho', 'ught </thi']);
    expect(r.reasoning).toBe('half a thought </thi');
    expect(r.text).toBe('');
  });

  it('gives a stream that was only "<th" back as text', () => {
    expect(run(['<th']).text).toBe('<th');
  });
});
