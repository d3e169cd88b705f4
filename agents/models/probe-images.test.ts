// The probe tests image input for a spec that claims it (`+images`): one small
// picture, asked its colour. A model that names it reads images; one that does
// not, or a server that refuses image parts, is said once in the notes to get
// the text tools. A spec without `+images` sends no picture.
import { describe, expect, it } from 'vitest';
import { serverPerTest } from '../../test/support/model-tests';
import type { RecordedRequest, ScriptStep } from '../../test/support/openai-server';
import { probeSpec } from './probe';

const start = serverPerTest();
type Part = { type: string; image_url?: { url: string } };
const picture = (r: RecordedRequest): string | undefined => {
  const m = (r.body as { messages: Array<{ content: unknown }> }).messages[0]!;
  return Array.isArray(m.content) ? (m.content as Part[]).find((p) => p.type === 'image_url')?.image_url?.url : undefined;
};
/** Calls the add tool when offered it; answers a picture with `colour`. */
const model =
  (colour: string): ((r: RecordedRequest) => ScriptStep) =>
  (r) =>
    picture(r) ? { content: colour } : { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3 } }] };
const TEXT_TOOLS = /gets the text tools, without the camera/;

describe('probe: image input', () => {
  it('a model that names the colour of the picture reads images', async () => {
    const s = await start([], { whenEmpty: model('Red.') });
    const r = await probeSpec(`openai-compatible:m@${s.url}+images`, { localModels: 'any' });
    expect(r).toMatchObject({ nativeToolCalls: true, imageInput: true });
    expect(r.notes.join(' ')).not.toMatch(TEXT_TOOLS);
    const sent = s.chatRequests().map(picture).filter(Boolean);
    expect(sent).toEqual([expect.stringMatching(/^data:image\/png;base64,/)]);
  });

  it('a model that does not, or a server that refuses the picture, gets the text tools, said once', async () => {
    const blind = await start([], { whenEmpty: model('I cannot see images.') });
    const r = await probeSpec(`openai-compatible:m@${blind.url}+images`, { localModels: 'any' });
    expect(r.imageInput).toBe(false);
    expect(r.notes.filter((n) => TEXT_TOOLS.test(n))).toHaveLength(1);

    const refusing = await start([], {
      whenEmpty: (q) => (picture(q) ? { status: 400, error: 'image input is not supported' } : model('red')(q)),
    });
    const r2 = await probeSpec(`openai-compatible:m@${refusing.url}+images`, { localModels: 'any' });
    expect(r2.imageInput).toBe(false);
    expect(r2.notes.filter((n) => TEXT_TOOLS.test(n))).toEqual([expect.stringMatching(/not supported/)]);
  });

  it('a spec without +images sends no picture', async () => {
    const s = await start([], { whenEmpty: model('red') });
    const r = await probeSpec(`openai-compatible:m@${s.url}`, { localModels: 'any' });
    expect(r.imageInput).toBeUndefined();
    expect(s.chatRequests().map(picture).filter(Boolean)).toEqual([]);
  });
});
