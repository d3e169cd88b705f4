// A model that sees, named with `+images`, gets the robot's camera in `run` and
// in `eval`: the local OpenAI-compatible server reads an image part in the
// request after the camera call, and `run`'s trace keeps the picture beside it.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RecordedRequest, type ScriptStep, startOpenAIServer } from '../../test/support/openai-server';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

type Sent = { role: string; content: unknown };
const sent = (r: RecordedRequest) => (r.body as { messages: Sent[] }).messages;
const offered = (r: RecordedRequest) =>
  ((r.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((t) => t.function.name);
/** The data URLs of the image parts a request carries. */
const imageUrls = (r: RecordedRequest) =>
  sent(r).flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as Array<{ type: string; image_url?: { url: string } }>).flatMap((p) =>
          p.type === 'image_url' ? [p.image_url!.url] : [],
        )
      : [],
  );

/** Looks first (when offered the camera), then answers. */
const looker = (req: RecordedRequest): ScriptStep =>
  sent(req).some((m) => m.role === 'tool')
    ? { content: 'I see a lemon on the table.' }
    : offered(req).includes('get_camera_image')
      ? { toolCalls: [{ name: 'get_camera_image', arguments: { width: 64 } }] }
      : { content: 'I have no camera.' };

describe('a model that sees, in run and eval', () => {
  it('run: the camera picture is in the request, and beside the trace', async () => {
    const server = await startOpenAIServer([], { whenEmpty: looker });
    const dir = mkdtempSync(join(tmpdir(), 'sb-vision-'));
    try {
      const r = await cli(
        'run',
        '--scene',
        'tabletop/fruits',
        '--workflow',
        'flat',
        '--model',
        `openai-compatible:test-model@${server.url}+images`,
        '--trace',
        join(dir, 't.jsonl'),
        '--json',
        'what do you see?',
      );
      expect(JSON.parse(r.out)).toMatchObject({ final: 'I see a lemon on the table.', reason: 'final' });
      const [first, second] = server.chatRequests();
      expect(offered(first!)).toContain('get_camera_image');
      expect(imageUrls(second!)).toEqual([expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/)]);
      const files = readdirSync(dir).filter((f) => f.endsWith('.files'));
      expect(files).toHaveLength(1);
      const pngs = readdirSync(join(dir, files[0]!));
      expect(pngs).toEqual([expect.stringMatching(/\.png$/)]);
      const trace = readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
      const text = trace.map((f) => readFileSync(join(dir, f), 'utf8')).join('');
      expect(text).toContain(`${files[0]}/${pngs[0]}`);
      expect(text).not.toContain('iVBORw0KGgo');
    } finally {
      await server.close();
    }
  });

  it('run: the same model without +images is offered no camera', async () => {
    const server = await startOpenAIServer([], { whenEmpty: looker });
    try {
      const r = await cli(
        'run',
        '--scene',
        'tabletop/fruits',
        '--workflow',
        'flat',
        '--model',
        `openai-compatible:test-model@${server.url}`,
        '--json',
        'hi',
      );
      expect(JSON.parse(r.out)).toMatchObject({ final: 'I have no camera.' });
      expect(offered(server.chatRequests()[0]!)).not.toContain('get_camera_image');
    } finally {
      await server.close();
    }
  });

  it('eval: each case of a suite sends the camera picture to the model', async () => {
    const server = await startOpenAIServer([], { whenEmpty: looker });
    const out = mkdtempSync(join(tmpdir(), 'sb-vision-eval-'));
    try {
      const suite = join(import.meta.dirname, '../../examples/suites/fruits.json');
      const r = await cli('eval', '--suite', suite, '--model', `openai-compatible:test-model@${server.url}+images`, '--out', out, '--json');
      expect(r.code, r.err).not.toBe(70);
      const withImage = server.chatRequests().filter((q) => imageUrls(q).length > 0);
      expect(withImage.length).toBeGreaterThanOrEqual(2);
      expect(existsSync(out)).toBe(true);
    } finally {
      await server.close();
    }
  }, 60_000);
});
