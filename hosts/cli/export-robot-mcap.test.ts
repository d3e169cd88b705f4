// skillbridge export --mcap of a run recorded with --robot: no scene to
// rebuild, so nothing is simulated; the poses are the robot's reported ones,
// under the `reported` frame, and the file says so.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openConversation } from '../../agents/conversation';
import { JsonlSink } from '../../agents/runtime/trace';
import { openSim } from '../../robot/sim/open';
import { FakeModel } from '../../test/support/fake-model';
import { readMcap } from '../foxglove/mcap';
import { main } from './main';

const dir = mkdtempSync(join(tmpdir(), 'sb-mcap-robot-'));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

type Transform = { parent_frame_id: string; child_frame_id: string; translation: { x: number; y: number; z: number } };

describe('skillbridge export --mcap of a real-robot trace', () => {
  it('writes the poses the robot reported, marked as reported, with no replay', async () => {
    // A robot at a URL, as `run --robot` records it (the header names the robot, not a scene).
    const { robot, control } = await openSim('tabletop/fruits');
    const trace = join(dir, 'robot.jsonl');
    const opened = await openConversation({
      robot,
      workflow: 'flat',
      scene: 'http://127.0.0.1:8765',
      toolSet: 'alrm',
      model: new FakeModel([
        { toolCalls: [{ name: 'get_objects', arguments: {} }] },
        { toolCalls: [{ name: 'get_pose', arguments: { name: 'lemon' } }] },
        { content: 'I see fruit.' },
      ]),
      traceSinks: () => [new JsonlSink(trace)],
    });
    await opened.conversation.send('what do you see?');
    await opened.close();
    control.dispose();

    const out = join(dir, 'robot.mcap');
    const r = await cli('export', trace, '--mcap', out, '--json');
    expect(r.code, r.err).toBe(0);
    const { messages, metadata } = await readMcap(out);
    expect(metadata.get('skillbridge')?.get('poses')).toMatch(/as reported by the robot.*not simulated/);
    expect(messages.get('/scene') ?? []).toHaveLength(0);
    const tf = (messages.get('/tf') ?? []).map((m) => m as { transforms: Transform[] });
    expect(tf.length).toBeGreaterThan(0);
    // get_pose answers in the robot's base frame (REP 103): x forward, y left, z up.
    const lemon = tf.at(-1)!.transforms.find((t) => t.child_frame_id === 'reported/base_link/lemon');
    expect(lemon?.parent_frame_id).toBe('reported/base_link');
    expect(lemon!.translation).toEqual({ x: 0.3, y: -0.1, z: 0.026 });
    expect(tf.flatMap((m) => m.transforms).some((t) => t.child_frame_id.startsWith('sim'))).toBe(false);
    expect(JSON.stringify(messages.get('/log'))).toMatch(/reported by the robot at http:\/\/127\.0\.0\.1:8765/);
  }, 60_000);
});
