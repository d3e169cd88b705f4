// skillbridge export --mcap: a two-turn run is replayed into an MCAP file, read
// back with @mcap/core's indexed reader: the channels, their schemas, how many
// messages each holds, and that the poses show what the run did (the lemon
// ends in the bowl). A tampered trace is reported as diverged; a damaged one,
// or one whose scene is unknown, is one line and exit 2.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openConversation } from '../../agents/conversation';
import { JsonlSink, readTrace } from '../../agents/runtime/trace';
import { FakeModel } from '../../test/support/fake-model';
import { readMcap } from '../foxglove/mcap';
import { main } from './main';

const dir = mkdtempSync(join(tmpdir(), 'sb-mcap-'));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

type Transform = { child_frame_id: string; translation: { x: number; y: number; z: number } };

describe('skillbridge export --mcap', () => {
  const traces: string[] = [];
  beforeAll(async () => {
    let n = 0;
    const opened = await openConversation({
      robot: { kind: 'sim', scene: 'tabletop/fruits', seed: 1 },
      workflow: 'flat',
      scene: 'tabletop/fruits',
      seed: 1,
      model: new FakeModel([
        { toolCalls: [{ name: 'get_objects', arguments: {} }] },
        { toolCalls: [{ name: 'pick', arguments: { object_name: 'lemon' } }] },
        { content: 'I hold the lemon.' },
        { toolCalls: [{ name: 'pick', arguments: { object_name: 'peach' } }] },
        { toolCalls: [{ name: 'place', arguments: { target: 'bowl' } }] },
        { content: 'The lemon is in the bowl.' },
      ]),
      traceSinks: () => {
        const p = join(dir, `turn${++n}.jsonl`);
        traces.push(p);
        return [new JsonlSink(p)];
      },
    });
    await opened.conversation.send('pick the lemon');
    await opened.conversation.send('put it in the bowl');
    await opened.close();
  }, 60_000);

  it('writes poses, shapes, joints, camera, facts and every record, on channels Foxglove understands', async () => {
    const out = join(dir, 'run.mcap');
    // Turns given out of order are put back in order.
    const r = await cli('export', traces[1]!, traces[0]!, '--mcap', out, '--json');
    expect(r.code, r.err).toBe(0);
    const report = JSON.parse(r.out) as {
      replay: { toolCalls: number; replayed: number; skipped: Array<{ name: string; reason: string }>; diverged: unknown[] };
    };
    // The peach call failed (the hand was full): it ran, so it is replayed too, with the same outcome.
    expect(report.replay).toMatchObject({ toolCalls: 4, replayed: 4, skipped: [], diverged: [] });

    const { channels, messages: byTopic, messageCount, metadata } = await readMcap(out);
    const schemaOf = (topic: string) => channels.find((c) => c.topic === topic)!;
    expect(channels.map((c) => c.topic).sort()).toEqual([
      '/camera/image',
      '/facts',
      '/joint_states',
      '/log',
      '/scene',
      '/tf',
      '/trace',
      '/trace/header',
    ]);
    expect(channels.every((c) => c.messageEncoding === 'json' && c.schemaEncoding === 'jsonschema')).toBe(true);
    expect(schemaOf('/tf').schemaName).toBe('foxglove.FrameTransforms');
    expect(schemaOf('/scene').schemaName).toBe('foxglove.SceneUpdate');
    expect(schemaOf('/camera/image').schemaName).toBe('foxglove.CompressedImage');
    expect(schemaOf('/trace').schemaName).toBe('skillbridge.TraceRecord');
    expect(JSON.parse(schemaOf('/tf').schema)).toHaveProperty('properties.transforms');
    // Every message matches the JSON Schema its channel declares.
    for (const c of channels) {
      const schema = z.fromJSONSchema(JSON.parse(c.schema) as Parameters<typeof z.fromJSONSchema>[0]);
      const invalid = byTopic.get(c.topic)!.filter((m) => !schema.safeParse(m).success);
      expect(invalid, c.topic).toEqual([]);
    }

    const records = traces.reduce((sum, t) => sum + readTrace(t).records.length, 0);
    expect(byTopic.get('/trace')!.length).toBe(records);
    expect(byTopic.get('/trace/header')!.length).toBe(2);
    expect(byTopic.get('/scene')!.length).toBe(1);
    expect(byTopic.get('/camera/image')!.length).toBe(1 + 4);
    expect(byTopic.get('/tf')!.length).toBeGreaterThan(20);
    expect(byTopic.get('/joint_states')!.length).toBe(byTopic.get('/tf')!.length);
    expect(messageCount).toBe(BigInt([...byTopic.values()].reduce((s, l) => s + l.length, 0)));

    // The poses tell the story: the lemon rises with the pick and ends over the bowl.
    const lemon = (m: unknown) => (m as { transforms: Transform[] }).transforms.find((t) => t.child_frame_id === 'lemon_1')!.translation;
    const bowl = (m: unknown) => (m as { transforms: Transform[] }).transforms.find((t) => t.child_frame_id === 'bowl_1')!.translation;
    const tf = byTopic.get('/tf')!;
    const first = lemon(tf[0]);
    expect(Math.max(...tf.map((m) => lemon(m).y))).toBeGreaterThan(first.y + 0.08);
    const last = tf.at(-1)!;
    expect(Math.hypot(lemon(last).x - bowl(last).x, lemon(last).z - bowl(last).z)).toBeLessThan(0.08);
    expect((byTopic.get('/facts')!.at(-1) as { facts: string[] }).facts).toContain('in(lemon_1, bowl_1)');
    expect((byTopic.get('/scene')![0] as { entities: Array<{ id: string }> }).entities.map((e) => e.id)).toEqual(
      expect.arrayContaining(['lemon_1', 'bowl_1', 'robot#base', 'floor']),
    );
    const image = byTopic.get('/camera/image')![0] as { format: string; data: string };
    expect(image.format).toBe('png');
    expect(Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(metadata.get('skillbridge')?.get('scene')).toBe('tabletop/fruits');
  }, 60_000);

  it('reports where a replay differs from the run instead of hiding it', async () => {
    const text = readFileSync(traces[0]!, 'utf8').replace('picked up lemon_1', 'picked up nothing at all');
    const tampered = join(dir, 'tampered.jsonl');
    writeFileSync(tampered, text);
    const r = await cli('export', tampered, '--mcap', join(dir, 'tampered.mcap'));
    expect(r.code).toBe(0);
    expect(r.err).toContain('diverged from the run at 1 call(s)');
    const { messages } = await readMcap(join(dir, 'tampered.mcap'));
    expect(JSON.stringify(messages.get('/log'))).toContain('replay diverged at pick');
  }, 60_000);

  it('answers a damaged trace, an unknown scene or a missing flag with one line and exit 2', async () => {
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(garbage, 'not a trace\n{"also": "not"}\n');
    const bad = await cli('export', garbage, '--mcap', join(dir, 'x.mcap'));
    expect(bad.code).toBe(2);
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/garbage.jsonl:\d+: not a trace header/);

    const header = JSON.parse(readFileSync(traces[0]!, 'utf8').split('\n')[0]!) as Record<string, unknown>;
    const elsewhere = join(dir, 'elsewhere.jsonl');
    writeFileSync(elsewhere, `${JSON.stringify({ ...header, scene: 'nowhere' })}\n`);
    const scene = await cli('export', elsewhere, '--mcap', join(dir, 'y.mcap'), '--json');
    expect(scene.code).toBe(2);
    expect(JSON.parse(scene.out)).toMatchObject({ error: { code: 'usage', message: expect.stringContaining('nowhere') } });

    expect((await cli('export', traces[0]!)).err).toContain('--mcap FILE');
    expect((await cli('export', join(dir, 'none.jsonl'), '--mcap', 'z.mcap')).err).toContain('no such file');
  }, 60_000);
});
