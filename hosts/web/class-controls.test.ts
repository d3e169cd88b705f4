// The stop always wins in classroom mode: the teacher presses (and releases) a
// watched group's e-stop, stops one group or all of them, and a group can do
// none of that to another.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type SocketLike, type WsClient, connectWs } from '../../contract/ws-client';
import { AppService as Session } from '../service/app-service';
import { type WebServer, startWebServer } from './server';
import { sessionFolders } from './session-files';
import { CLASS_GRACE_MS, DEFAULT_GRACE_MS } from './sessions';

const factory = (url: string): SocketLike => new WebSocket(url) as unknown as SocketLike;
const dir = mkdtempSync(path.join(tmpdir(), 'skillbridge-stop-'));
writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>t</title>');

let server: WebServer | undefined;
const clients: WsClient[] = [];

async function start(): Promise<WebServer> {
  server = await startWebServer({
    openSession: async () => {
      // As serve opens them: each session with its own trace and results folders.
      const s = new Session({ paced: false, ...sessionFolders(path.join(dir, 'traces'), path.join(dir, 'eval-results')) });
      await s.loadScene({ id: 'tabletop/fruits' });
      return s;
    },
    staticDir: dir,
    port: 0,
    classroom: true,
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

describe("the teacher's e-stop", () => {
  it("presses and releases the e-stop of the group it watches; a watched group's other calls stay refused", async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    await teacher.observeSession({ id: g1.session!.session.id });
    expect((await teacher.injectEvent({ type: 'estop_pressed' })).ok).toBe(true);
    expect((await g1.getSnapshot({})).estop).toBe(true);
    expect((await teacher.listSessions({})).find((x) => x.id === g1.session!.session.id)?.estop).toBe(true);
    await expect(teacher.injectEvent({ type: 'set_battery', percent: 5 })).rejects.toThrow(/read-only/);
    expect((await teacher.injectEvent({ type: 'estop_released' })).ok).toBe(true);
    expect((await g1.getSnapshot({})).estop).toBe(false);
  });

  it('stops one group, then every group, and releases them; a group may not', async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const g2 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    await expect(g1.stopGroups({ id: null })).rejects.toThrow(/only the teacher/);
    const one = await teacher.stopGroups({ id: g2.session!.session.id });
    expect(one.ok).toBe(true);
    expect([(await g1.getSnapshot({})).estop, (await g2.getSnapshot({})).estop]).toEqual([false, true]);
    expect((await teacher.stopGroups({ id: null })).ok).toBe(true);
    expect([(await g1.getSnapshot({})).estop, (await g2.getSnapshot({})).estop]).toEqual([true, true]);
    // The teacher's own world is not a group's: it keeps moving.
    expect((await teacher.getSnapshot({})).estop).toBe(false);
    expect((await teacher.stopGroups({ id: null, release: true })).ok).toBe(true);
    expect([(await g1.getSnapshot({})).estop, (await g2.getSnapshot({})).estop]).toEqual([false, false]);
    expect((await teacher.stopGroups({ id: 's99' })).ok).toBe(false);
  });

  it('a group cannot release a stop the teacher pressed; its own stop it releases', async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    const id = g1.session!.session.id;
    await teacher.stopGroups({ id });
    const refused = await g1.injectEvent({ type: 'estop_released' });
    expect(refused).toMatchObject({ ok: false, message: expect.stringMatching(/only the teacher releases it/) });
    expect((await g1.getSnapshot({})).estop).toBe(true);
    // Pressed while watching, too.
    expect((await teacher.stopGroups({ id, release: true })).ok).toBe(true);
    await teacher.observeSession({ id });
    await teacher.injectEvent({ type: 'estop_pressed' });
    expect((await g1.injectEvent({ type: 'estop_released' })).ok).toBe(false);
    await teacher.injectEvent({ type: 'estop_released' });
    await teacher.observeSession({ id: null });
    // A stop the group pressed itself, the group releases.
    await g1.injectEvent({ type: 'estop_pressed' });
    expect((await g1.injectEvent({ type: 'estop_released' })).ok).toBe(true);
    expect((await g1.getSnapshot({})).estop).toBe(false);
  });

  it('the teacher\'s notes name an unnamed group as shown ("Group 1"), never by its session id', async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    const id = g1.session!.session.id;
    const shown = `Group ${id.slice(1)}`;
    expect((await teacher.stopGroups({ id })).message).toBe(`e-stop pressed for ${shown}`);
    expect((await teacher.stopGroups({ id: null, release: true })).message).toBe(`e-stop released for ${shown}`);
    expect((await teacher.setSessionLabel({ id, label: 'Team A' })).message).toBe(`${shown} is now called "Team A"`);
  });

  it("the teacher's rename reaches the group's own tab at once", async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    const heard: Array<string | null | undefined> = [];
    g1.onSession((x) => heard.push(x.label));
    expect((await teacher.setSessionLabel({ id: g1.session!.session.id, label: 'Team Renamed' })).ok).toBe(true);
    for (let i = 0; i < 50 && !heard.includes('Team Renamed'); i++) await new Promise((x) => setTimeout(x, 20));
    expect(heard).toContain('Team Renamed');
  });

  it("groups read their own runs and traces only, named by file name; the teacher reads a group's by watching it", async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const g2 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    const ran = await g1.run({
      message: 'hi',
      workflow: 'flat',
      model: 'scripted:mine.json',
      script: '[{"content": "hello"}]',
      approval: 'auto',
    });
    expect(ran.tracePath).toBe(`${ran.runId}.jsonl`);
    for (let i = 0; i < 50 && (await g1.listRuns({})).every((r) => r.running); i++) await new Promise((r) => setTimeout(r, 100));
    expect((await g1.exportTrace({ runId: ran.runId })).text).toContain('hello');
    await expect(g2.exportTrace({ runId: ran.runId })).rejects.toThrow(/no trace/);
    expect((await g2.listRuns({})).map((r) => r.runId)).not.toContain(ran.runId);
    await teacher.observeSession({ id: g1.session!.session.id });
    expect((await teacher.exportTrace({ runId: ran.runId })).text).toContain('hello');
    expect(Array.isArray(await teacher.listEvalRuns({}))).toBe(true);
  });

  it('a group whose tab went away (a closed lid) is kept with its runs for the lesson, and its tab reattaches', async () => {
    expect(CLASS_GRACE_MS).toBeGreaterThanOrEqual(60 * 60 * 1000);
    expect(CLASS_GRACE_MS).toBeGreaterThan(DEFAULT_GRACE_MS * 100);
    const s = await start();
    const g1 = await tab(s.token);
    const { id, token } = g1.session!.session;
    const ran = await g1.run({
      message: 'hi',
      workflow: 'flat',
      model: 'scripted:mine.json',
      script: '[{"content": "hello"}]',
      approval: 'auto',
    });
    g1.close();
    await new Promise((r) => setTimeout(r, 100));
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    expect((await teacher.listSessions({})).find((x) => x.id === id)).toMatchObject({ clients: 0 });
    const back = await connectWs(`ws://127.0.0.1:${server!.port}/api?token=${s.token}&session=${token}`, factory);
    clients.push(back);
    for (let i = 0; i < 50 && back.session === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    expect(back.session!.session).toMatchObject({ id, resumed: true });
    expect((await back.listRuns({})).map((r) => r.runId)).toContain(ran.runId);
  });
});

describe('the class at a glance', () => {
  it("lists each group's scene from above at its latest poses, to the teacher only", async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    const id = g1.session!.session.id;
    const glance = async () => (await teacher.listSessions({})).find((x) => x.id === id)?.glance;
    for (let i = 0; i < 50 && !(await glance())?.simTime; i++) await new Promise((r) => setTimeout(r, 100));
    const g = (await glance())!;
    expect(g.floor[0]).toBeGreaterThan(0);
    expect(g.shapes.filter((x) => x.k === 'robot').length).toBeGreaterThan(0);
    expect(g.shapes.filter((x) => x.k === 'object').length).toBeGreaterThan(3);
    // The lemon's footprint is where the scene has it (it rests where it was loaded).
    const lemon = (await g1.currentScene({}))!.objects.find((o) => o.id === 'lemon_1')!.body.position;
    const near = g.shapes.filter((x) => x.k === 'object' && Math.hypot(x.x - lemon[0], x.z - lemon[2]) < 0.03);
    expect(near.length).toBeGreaterThan(0);
    // A group lists its own session only (and no glance of itself is needed).
    await expect(g1.listSessions({})).rejects.toThrow(/only the teacher/);
  });

  it('the teacher names a group; a group may not name another', async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const g2 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    await g1.setSessionLabel({ label: 'Lemons' });
    expect((await teacher.setSessionLabel({ id: g1.session!.session.id, label: 'Team Lemon' })).ok).toBe(true);
    await expect(g2.setSessionLabel({ id: g1.session!.session.id, label: 'Ha' })).rejects.toThrow(/only the teacher/);
    expect((await teacher.listSessions({})).find((x) => x.id === g1.session!.session.id)?.label).toBe('Team Lemon');
  });

  it("a group's reconnect does not overwrite the name the teacher set; a deliberate rename still wins", async () => {
    const s = await start();
    const g1 = await tab(s.token);
    const teacher = await tab(new URL(s.teacherUrl!).searchParams.get('token')!);
    const { id, token } = g1.session!.session;
    const label = async () => (await teacher.listSessions({})).find((x) => x.id === id)?.label;
    // A fresh session takes the name its tab offers on connecting.
    expect(await g1.setSessionLabel({ label: 'Lemons', reconnect: true })).toMatchObject({ ok: true, label: 'Lemons' });
    await teacher.setSessionLabel({ id, label: 'Team Lemon' });
    g1.close();
    await new Promise((r) => setTimeout(r, 100));
    const back = await connectWs(`ws://127.0.0.1:${server!.port}/api?token=${s.token}&session=${token}`, factory);
    clients.push(back);
    for (let i = 0; i < 50 && back.session === undefined; i++) await new Promise((r) => setTimeout(r, 20));
    // The reattached tab offers the name it kept: the teacher's stays, and the reply says which.
    expect(await back.setSessionLabel({ label: 'Lemons', reconnect: true })).toMatchObject({ ok: true, label: 'Team Lemon' });
    expect(await label()).toBe('Team Lemon');
    // The group renaming itself on purpose is the latest deliberate rename.
    expect(await back.setSessionLabel({ label: 'Lemon Crew' })).toMatchObject({ ok: true, label: 'Lemon Crew' });
    expect(await label()).toBe('Lemon Crew');
  });
});
