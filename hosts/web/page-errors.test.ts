// Errors to pages never name host paths: an error of our own (`internal`) reaches
// the page as a numbered sentence while the host's log keeps the whole, and any
// other error keeps its words with each host path cut to its last part.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AppApiError } from '../../contract/api';
import { type SocketLike, type WsClient, connectWs } from '../../contract/ws-client';
import { AppService } from '../service/app-service';
import { redactHostPaths } from '../service/page-errors';
import { type WebServer, startWebServer } from './server';

const HOST_FOLDER = '/srv/classroom/eval-results/session-2026-g1';

/** A session whose answers fail the way a results database and a bug do, naming the host's folders. */
class FailingSession extends AppService {
  override async evalReport(): Promise<never> {
    throw new Error(`${HOST_FOLDER}/results.db: database disk image is malformed`);
  }
  override async evalCases(): Promise<never> {
    throw new AppApiError('invalid_request', `no run "x" in ${HOST_FOLDER}/results.db (runs there: a, b)`);
  }
}

describe('errors a page receives', () => {
  let server: WebServer;
  let client: WsClient;
  const logged: string[] = [];
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sb-page-errors-'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');
    server = await startWebServer({
      openSession: async () => new FailingSession({ paced: false }),
      staticDir: dir,
      port: 0,
      log: (l) => logged.push(l),
    });
    client = await connectWs(`ws://127.0.0.1:${server.port}/api?token=${server.token}`, (u) => new WebSocket(u) as unknown as SocketLike);
  });
  afterAll(async () => {
    client?.close();
    await server?.close();
  });

  it('an internal error is a numbered sentence; the host logs the whole message', async () => {
    const e = (await client.evalReport({ runId: 'x' }).catch((x: unknown) => x)) as AppApiError;
    expect(e.code).toBe('internal');
    expect(e.message).not.toContain('/srv');
    expect(e.message).toMatch(/^the host failed to answer \(error #\d+ in its log\)$/);
    const n = /#(\d+)/.exec(e.message)![1];
    expect(logged.some((l) => l.includes(`#${n}`) && l.includes(HOST_FOLDER))).toBe(true);
  });

  it("any other error keeps its words without the host's paths", async () => {
    const e = (await client.evalCases({ runId: 'x' }).catch((x: unknown) => x)) as AppApiError;
    expect(e.code).toBe('invalid_request');
    expect(e.message).toBe('no run "x" in …/results.db (runs there: a, b)');
  });
});

describe('redactHostPaths', () => {
  it.each([
    ['/home/ana/models/qwen.gguf: not a GGUF file', '…/qwen.gguf: not a GGUF file'],
    ['No model file at "/var/lib/sb/models/x.gguf"', 'No model file at "…/x.gguf"'],
    ['cannot read C:\\Users\\ana\\suite.json (denied)', 'cannot read …/suite.json (denied)'],
    ['in ~/eval-results/results.db', 'in …/results.db'],
    ['http://127.0.0.1:9/v1 could not be reached', 'http://127.0.0.1:9/v1 could not be reached'],
    ['score 1/2 over 3 cases', 'score 1/2 over 3 cases'],
  ])('%s', (given, page) => {
    expect(redactHostPaths(given)).toBe(page);
  });
});
