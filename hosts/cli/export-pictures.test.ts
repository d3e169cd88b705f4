// skillbridge export --mcap carries the pictures a run's tools gave: each a
// foxglove.CompressedImage (format png) on /camera/<tool>/image at its result's
// time, with the very bytes the trace keeps beside it. A picture whose file is
// gone is said on /log and in the report, and the rest is written.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openConversation } from '../../agents/conversation';
import { JsonlSink, readTrace } from '../../agents/runtime/trace';
import { CAMERA_TOOL } from '../../agents/tools/camera';
import { FakeModel } from '../../test/support/fake-model';
import { readMcap } from '../foxglove/mcap';
import { main } from './main';

const dir = mkdtempSync(join(tmpdir(), 'sb-mcap-pictures-'));
const trace = join(dir, 'seen.jsonl');

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

type Image = { timestamp: { sec: number; nsec: number }; frame_id: string; data: string; format: string };

describe('skillbridge export --mcap: pictures', () => {
  beforeAll(async () => {
    const opened = await openConversation({
      robot: { kind: 'sim', scene: 'tabletop/fruits', seed: 1 },
      workflow: 'flat',
      scene: 'tabletop/fruits',
      seed: 1,
      model: Object.assign(
        new FakeModel([{ toolCalls: [{ name: CAMERA_TOOL, arguments: { width: 64 } }] }, { content: 'A lemon and a bowl.' }]),
        { input: 'images' as const },
      ),
      traceSinks: () => [new JsonlSink(trace)],
    });
    await opened.conversation.send('what do you see?');
    await opened.close();
  }, 60_000);

  it('writes each picture as a CompressedImage with the bytes beside the trace, at its call time', async () => {
    const out = join(dir, 'seen.mcap');
    const r = await cli('export', trace, '--mcap', out, '--json');
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { pictures: unknown }).pictures).toEqual({ written: 1, missing: [] });

    const result = readTrace(trace).records.find((x) => x.type === 'tool_result' && x.name === CAMERA_TOOL);
    if (result?.type !== 'tool_result') throw new Error('no camera result in the trace');
    const ref = result.images![0]!.ref!;
    const file = readFileSync(join(dir, ref));

    const { channels, messages } = await readMcap(out);
    const topic = `/camera/${CAMERA_TOOL}/image`;
    expect(channels.find((c) => c.topic === topic)).toMatchObject({ schemaName: 'foxglove.CompressedImage', messageEncoding: 'json' });
    const images = messages.get(topic) as Image[];
    expect(images).toHaveLength(1);
    expect(images[0]!.format).toBe('png');
    expect(Buffer.from(images[0]!.data, 'base64').equals(file)).toBe(true);
    // At the call's time: the record's own stamp (the replay's clock never runs behind the records).
    const ms = images[0]!.timestamp.sec * 1000 + Math.round(images[0]!.timestamp.nsec / 1e6);
    expect(ms).toBeGreaterThanOrEqual(Date.parse(result.t));
    const traced = (messages.get('/trace') as Array<{ type: string; id?: string }>).findIndex((x) => x.type === 'tool_result');
    expect(traced).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('a picture whose file is gone is said on /log and in the report; the export still succeeds', async () => {
    const result = readTrace(trace).records.find((x) => x.type === 'tool_result' && x.name === CAMERA_TOOL);
    if (result?.type !== 'tool_result') throw new Error('no camera result in the trace');
    rmSync(join(dir, result.images![0]!.ref!));
    const out = join(dir, 'gone.mcap');
    const r = await cli('export', trace, '--mcap', out);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/picture seen\.files\/.+ left out: /);
    const { messages } = await readMcap(out);
    expect(messages.get(`/camera/${CAMERA_TOOL}/image`)).toBeUndefined();
    expect((messages.get('/log') as Array<{ message: string }>).some((m) => /picture .* left out/.test(m.message))).toBe(true);
  }, 60_000);
});
