// The pictures of a session's runs reach the page by the run's id and the
// picture's name in its trace: the same bytes the trace keeps beside it (or in
// memory), and a clear refusal for a name that is not a picture of the run, a
// path, a file that is missing or is not the image its record says.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppEvent, RunEvent } from '../../contract/schemas';
import { METHODS, parseRequest } from '../../contract/api';
import { RunPicture, picturesOfRecord } from '../../contract/pictures';
import type { ResultRecord } from '../../eval/results/records';
import type { TraceImageId } from '../../base/host-refs';
import { AppService } from './app-service';
import { caseImage } from './case-replay';

const dir = mkdtempSync(join(tmpdir(), 'sb-pictures-'));
const sessions: AppService[] = [];
afterAll(async () => {
  for (const s of sessions) await s.dispose();
});

const call = (name: string, args: unknown) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: 'c_cam', type: 'function', function: { name, arguments: JSON.stringify(args) } }],
});

async function cameraRun(traceDir: string | undefined) {
  const s = new AppService({ paced: false, scriptFiles: { dir }, ...(traceDir ? { traceDir } : {}) });
  sessions.push(s);
  const events: AppEvent[] = [];
  s.onEvent((e) => events.push(e));
  await s.loadScene({ id: 'tabletop/fruits' });
  writeFileSync(join(dir, 'cam.json'), JSON.stringify([call('get_camera_image', { width: 64 }), { role: 'assistant', content: 'Fruit.' }]));
  const { runId } = await s.run({ message: 'what do you see?', workflow: 'flat', model: 'scripted:cam.json+images' });
  const ev = (): RunEvent[] => events.flatMap((e) => (e.type === 'run' && e.event.runId === runId ? [e.event] : []));
  await expect.poll(() => ev().some((e) => e.kind === 'final'), { timeout: 20_000 }).toBe(true);
  const result = ev().find((e) => e.kind === 'tool_result');
  if (result?.kind !== 'tool_result') throw new Error('no tool result');
  return { s, runId, result };
}

describe('pictures of a run, for the page', () => {
  it('the live event names the picture; the host gives the bytes kept beside the trace; replay names the same one', async () => {
    const traceDir = join(dir, 'traces');
    const { s, runId, result } = await cameraRun(traceDir);
    expect(result.pictures).toHaveLength(1);
    const p = RunPicture.parse(result.pictures![0]);
    expect(p).toMatchObject({ mimeType: 'image/png', width: 64, height: 48 });
    expect(p.simTime).toEqual(expect.any(Number));
    const img = await s.getRunImage({ runId, image: p.id });
    const file = readFileSync(join(traceDir, `${runId}.files`, p.id));
    expect(Buffer.from(img.data, 'base64').equals(file)).toBe(true);
    expect(img).toMatchObject({ mimeType: 'image/png', width: 64, height: 48 });

    // Replay reads the trace: the record names the same picture.
    const replay = await s.getRunReplay({ runId });
    const rec = replay.trace.records.find((r) => r.type === 'tool_result')!;
    expect(picturesOfRecord(rec['images'], rec['data'])).toEqual([p]);

    // A name the run has not, a path, a damaged file, a missing file: each refused with why.
    await expect(s.getRunImage({ runId, image: 'c_other-1.png' })).rejects.toThrow(`run ${runId} has no picture named c_other-1.png`);
    expect(() => parseRequest('getRunImage', { runId, image: '../secret.png' })).toThrow(/image/);
    await expect(s.getRunImage({ runId, image: '../secret.png' })).rejects.toThrow(/not a picture of a run/);
    await expect(s.getRunImage({ runId: '../x', image: p.id })).rejects.toThrow(/not a run id/);
    writeFileSync(join(traceDir, `${runId}.files`, p.id), 'not a picture');
    await expect(s.getRunImage({ runId, image: p.id })).rejects.toThrow(/not a PNG image/);
    rmSync(join(traceDir, `${runId}.files`, p.id));
    await expect(s.getRunImage({ runId, image: p.id })).rejects.toThrow(/the picture file beside the trace: /);
  }, 60_000);

  it('a session that writes no traces keeps the pictures in memory and gives them the same way', async () => {
    const { s, runId, result } = await cameraRun(undefined);
    const id = result.pictures![0]!.id;
    const img = await s.getRunImage({ runId, image: id });
    expect(Buffer.from(img.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
    expect(METHODS.getRunImage.response.safeParse(img).success).toBe(true);
  }, 60_000);

  it("an evaluated case's picture is read from beside the case's trace in its results folder, and nowhere else", async () => {
    // A results folder whose case trace is this run's trace (the evaluation writes the same trace format).
    const results = join(dir, 'results');
    const { runId, result } = await cameraRun(join(results, 'traces'));
    const id = result.pictures![0]!.id as TraceImageId;
    const row = { caseId: 'etp-img-need-1', trial: 1, tracePath: `traces/${runId}.jsonl` } as ResultRecord;
    const img = await caseImage(results, row, id);
    expect(Buffer.from(img.data, 'base64').equals(readFileSync(join(results, 'traces', `${runId}.files`, id)))).toBe(true);
    await expect(caseImage(results, row, 'c_other-1.png' as TraceImageId)).rejects.toThrow(
      'case etp-img-need-1 trial 1 has no picture named c_other-1.png',
    );
    // A row naming a trace outside its results folder is not followed.
    await expect(caseImage(join(results, 'other'), { ...row, tracePath: `../traces/${runId}.jsonl` }, id)).rejects.toThrow(
      /outside the results folder/,
    );
  }, 60_000);
});
