// Classroom mode: each group's tab gets its own session and cannot see the
// others; the teacher's link lists every group's scene, run and exercise score
// and watches any of them read-only. A page that lost its socket can ask
// whether its token still opens the host.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { TOKEN_CHECK_PATH, TOKEN_HEADER } from '../../contract/wire';
import { type SocketLike, type WsClient, connectWs } from '../../contract/ws-client';
import { AppService as Session } from '../service/app-service';
import { type WebServer, startWebServer } from './server';

const factory = (url: string): SocketLike => new WebSocket(url) as unknown as SocketLike;
const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-class-'));
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');

let server: WebServer | undefined;
const clients: WsClient[] = [];

async function start(classroom: boolean, manageModels = false): Promise<WebServer> {
  server = await startWebServer({
    openSession: async () => {
      const s = new Session({ paced: false, ...(manageModels ? { manageModels, modelsDir: path.join(dir, 'models') } : {}) });
      await s.loadScene({ id: 'tabletop/fruits' });
      return s;
    },
    staticDir: dir,
    port: 0,
    classroom,
  });
  return server;
}

async function tab(token: string): Promise<WsClient> {
  const c = await connectWs(`ws://127.0.0.1:${server!.port}/api?token=${token}`, factory);
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined;
});

describe('classroom mode', () => {
  it('a group lists local models but never downloads or removes them; the teacher may where the host allows', async () => {
    const s = await start(true, true);
    const g = await tab(s.token);
    expect((await g.listLocalModels({})).canManage).toBe(true);
    await expect(g.pullLocalModel({ id: 'qwen2.5-0.5b-instruct' })).rejects.toThrow(/only the teacher downloads or removes models/);
    await expect(g.removeLocalModel({ id: 'qwen2.5-0.5b-instruct' })).rejects.toThrow(/only the teacher/);
    await expect(g.cancelLocalModelPull({ id: 'qwen2.5-0.5b-instruct' })).rejects.toThrow(/only the teacher/);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    expect(await teacher.removeLocalModel({ id: 'qwen2.5-0.5b-instruct' })).toMatchObject({
      ok: false,
      message: expect.stringMatching(/no model/),
    });
    expect((await teacher.listLocalModels({})).dir).toBe("the server's models folder");
  });

  it('prints a teacher link with its own token; plain web mode has none', async () => {
    const s = await start(true);
    expect(s.teacherUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/);
    expect(s.teacherUrl).not.toBe(s.url);
    await s.close();
    server = undefined;
    expect((await start(false)).teacherUrl).toBeNull();
  });

  it('groups cannot list or watch each other; the teacher sees every group and watches read-only', async () => {
    const s = await start(true);
    const teacherToken = new URL(s.teacherUrl!).searchParams.get('token')!;
    const g1 = await tab(s.token);
    const g2 = await tab(s.token);
    expect(g1.session?.role).toBe('group');
    await expect(g1.listSessions({})).rejects.toThrow(/only the teacher sees other groups' sessions/);
    await expect(g1.observeSession({ id: g2.session!.session.id })).rejects.toThrow(/forbidden|only the teacher/);

    expect((await g1.setSessionLabel({ label: 'Team Lemon' })).ok).toBe(true);
    await g1.callTool({ name: 'pick', args: { object_name: 'lemon' } });
    await g1.callTool({ name: 'place', args: { target: 'bowl' } });
    expect((await g1.checkExercise({ id: 'fruits-lemon-bowl' })).ok).toBe(true);

    const teacher = await tab(teacherToken);
    expect(teacher.session?.role).toBe('teacher');
    const list = await teacher.listSessions({});
    const team = list.find((x) => x.id === g1.session!.session.id)!;
    expect(team).toMatchObject({
      label: 'Team Lemon',
      scene: 'tabletop/fruits',
      exercise: { id: 'fruits-lemon-bowl', ok: true, passed: 2, total: 2 },
    });
    expect(list.find((x) => x.id === g2.session!.session.id)).toMatchObject({ label: null, exercise: null });

    const watched = await teacher.observeSession({ id: g1.session!.session.id });
    expect(watched.ok).toBe(true);
    expect((await teacher.getSnapshot({})).facts).toContain('in(lemon_1, bowl_1)');
    await expect(teacher.resetScene({})).rejects.toThrow(/read-only/);
  });

  it('a page can ask whether its token still opens the host (after a restart it does not)', async () => {
    const s = await start(true);
    const check = (token: string) =>
      fetch(`http://127.0.0.1:${s.port}${TOKEN_CHECK_PATH}`, { headers: { [TOKEN_HEADER]: token } }).then((r) => r.status);
    expect(await check(s.token)).toBe(204);
    expect(await check(new URL(s.teacherUrl!).searchParams.get('token')!)).toBe(204);
    expect(await check('an-old-token')).toBe(401);
  });
});
