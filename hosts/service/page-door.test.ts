// What a page can make the host read: a suite, a model to test and a run's report
// are named by the page and parsed by the host policy, so a path in any of them
// reads nothing, and the answer is the same whether the path exists, is a suite-
// shaped file, a folder or nothing (a page learns nothing of the host's files).
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppApiError } from '../../contract/api';
import type { AppEvent } from '../../contract/schemas';
import { openResults } from '../../eval/results/index';
import { AppService } from './app-service';

const ROOT = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'sb-door-'));
const sessions: AppService[] = [];
// Names in the host's working folder, where a run id used to be looked up as a path.
const tag = `${process.pid}-${Date.now().toString(36)}`;
const otherFolder = path.join(process.cwd(), `sb-door-other-${tag}`);
const emptyDb = path.join(process.cwd(), `sb-door-empty-${tag}.db`);

afterAll(async () => {
  for (const s of sessions) await s.dispose();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(otherFolder, { recursive: true, force: true });
  rmSync(emptyDb, { force: true });
});

function session(): { s: AppService; events: AppEvent[] } {
  const s = new AppService({ paced: false, evalDir: path.join(scratch, `session-${sessions.length + 1}`) });
  sessions.push(s);
  const events: AppEvent[] = [];
  s.onEvent((e) => events.push(e));
  return { s, events };
}

async function refusal(p: Promise<unknown>): Promise<AppApiError> {
  const e = await p.then(
    (v) => new Error(`answered ${JSON.stringify(v).slice(0, 200)}`),
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(AppApiError);
  return e as AppApiError;
}

/** The answer with the path the page sent replaced, so answers about different paths compare. */
const shape = (message: string, given: string) => message.split(given).join('<PATH>');

describe("startEval's suite", () => {
  it('reads no file: a suite-shaped file, /etc/passwd, a folder and nothing get the same refusal, and nothing runs', async () => {
    const { s, events } = session();
    const suiteFile = path.join(scratch, 'suite.json');
    copyFileSync(path.join(ROOT, 'examples/suites/fruits.json'), suiteFile);
    const answers: string[] = [];
    for (const given of [suiteFile, '/etc/passwd', '/etc', '/no/such/suite.json', '../../etc/passwd', 'fruits.json']) {
      const e = await refusal(s.startEval({ suite: given, model: 'oracle', sample: 1 }));
      expect(e.code).toBe('invalid_request');
      expect(e.message).not.toMatch(/root:|lemon|cannot read|no such file|a folder/i);
      answers.push(shape(e.message, given));
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^suite: unknown suite "<PATH>"; suites: raider, alrm, etp, etp-images, dfki, rtw$/);
    expect(events.filter((e) => e.type === 'eval')).toEqual([]);
  });
});

describe('Test connection (probeModel) with local:PATH', () => {
  it('opens no host file: a file, a GGUF-looking file, a folder and nothing get the same answer', async () => {
    const { s } = session();
    const gguf = path.join(scratch, 'model.gguf');
    writeFileSync(gguf, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(60)]));
    const answers: string[] = [];
    for (const given of ['/etc/passwd', gguf, '/etc', '/no/such/model.gguf', '../../../etc/passwd']) {
      const r = await s.probeModel({ spec: `local:${given}` });
      expect(r.reachable).toBe(false);
      expect(r.error).not.toBeNull();
      answers.push(shape(JSON.stringify({ ...r, spec: '' }), given));
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/not a model name/);
  });
});

describe("evalReport's run id", () => {
  it("is looked up in the session's results only: a folder or a file of the host's working folder is never read", async () => {
    // Another group's results in the server's folder, and an empty file there.
    mkdirSync(otherFolder, { recursive: true });
    const other = openResults(otherFolder);
    other.startRun({ runId: 'other-groups-run', suite: 'alrm', model: 'oracle', workflow: 'flat', seed: 1, trials: 1, args: {} });
    other.close();
    writeFileSync(emptyDb, '');
    const { s } = session();
    for (const runId of [path.basename(otherFolder), path.basename(emptyDb)]) {
      const e = await refusal(s.evalReport({ runId }));
      expect(e.code).toBe('invalid_request');
      expect(e.message).not.toContain('other-groups-run');
      expect(e.message).not.toContain(process.cwd());
      expect(e.message).not.toContain(scratch);
    }
    // The empty file is still empty: it was not opened as a database.
    expect(statSync(emptyDb).size).toBe(0);
    expect(existsSync(path.join(scratch, 'session-1'))).toBe(false);
  });

  it('refuses an id that is not a run id with a message naming the field', async () => {
    const { s } = session();
    const e = await refusal(s.evalReport({ runId: 'a/../b' } as never));
    expect(e.message).toMatch(/^runId: /);
  });
});
