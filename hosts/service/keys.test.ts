// A page names the model; the host owns the keys. SKILLBRIDGE_API_KEY must not
// go to a base URL a page chose unless the host allows it, and scripted models
// read no file the page names.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startOpenAIServer, type OpenAIServer } from '../../test/support/openai-server';
import { AppService } from './app-service';

const servers: OpenAIServer[] = [];
const sessions: AppService[] = [];
const saved = { key: process.env['SKILLBRIDGE_API_KEY'], base: process.env['SKILLBRIDGE_API_BASE_URL'] };
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.dispose();
  for (const s of servers.splice(0)) await s.close();
});
afterAll(() => {
  for (const [k, v] of [
    ['SKILLBRIDGE_API_KEY', saved.key],
    ['SKILLBRIDGE_API_BASE_URL', saved.base],
  ] as const) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

async function session(opts: ConstructorParameters<typeof AppService>[0] = {}): Promise<AppService> {
  const s = new AppService({ paced: false, ...opts });
  sessions.push(s);
  await s.loadScene({ id: 'tabletop/fruits' });
  return s;
}

describe('keys for models a page names', () => {
  it('a page-supplied base URL gets no key (no Authorization header), unless the host allows it', async () => {
    process.env['SKILLBRIDGE_API_KEY'] = 'sk-host-secret';
    delete process.env['SKILLBRIDGE_API_BASE_URL'];
    const page = await startOpenAIServer([{ content: 'hello' }]);
    const allowed = await startOpenAIServer([{ content: 'hello' }]);
    servers.push(page, allowed);
    const s = await session({ allowKeyFor: [`${allowed.url}/`] });
    const probe = await s.probeModel({ spec: `openai-compatible:test-model@${page.url}` });
    expect(probe.reachable).toBe(true);
    await s.probeModel({ spec: `openai-compatible:test-model@${allowed.url}` });
    const models = (srv: OpenAIServer) => srv.requests.filter((r) => r.path.endsWith('/models'));
    expect(models(page).map((r) => r.headers['authorization'] ?? null)).toEqual([null]);
    expect(models(allowed).map((r) => r.headers['authorization'])).toEqual(['Bearer sk-host-secret']);
    const chats = (srv: OpenAIServer) => srv.chatRequests().map((r) => r.headers['authorization'] ?? null);
    expect(chats(page).every((h) => h === null)).toBe(true);
  });

  it('the person at the host can confirm a new base URL (the desktop app asks)', async () => {
    process.env['SKILLBRIDGE_API_KEY'] = 'sk-host-secret';
    const srv = await startOpenAIServer([{ content: 'hello' }]);
    servers.push(srv);
    const asked: string[] = [];
    const s = await session({ confirmKey: async (u) => (asked.push(u), true) });
    await s.probeModel({ spec: `openai-compatible:test-model@${srv.url}` });
    expect(asked).toContain(srv.url);
    expect(srv.requests.find((r) => r.path.endsWith('/models'))?.headers['authorization']).toBe('Bearer sk-host-secret');
  });
});

describe('scripted models a page names', () => {
  it('cannot read a file on the host: absolute paths, .. and other files are refused without quoting them', async () => {
    const s = await session();
    for (const spec of ['scripted:/etc/passwd.json', 'scripted:../package.json', 'scripted:package.json']) {
      await expect(s.run({ message: 'x', workflow: 'flat', model: spec })).rejects.toMatchObject({
        code: 'invalid_request',
        message: expect.stringMatching(/upload the script/),
      });
    }
    const probe = await s.probeModel({ spec: 'scripted:/etc/passwd.json' });
    expect(probe.error?.message).toMatch(/upload the script/);
  });

  it('runs an uploaded script', async () => {
    const s = await session();
    const events: string[] = [];
    s.onEvent((e) => e.type === 'run' && e.event.kind === 'final' && events.push(e.event.text));
    await s.run({ message: 'hi', workflow: 'flat', model: 'scripted:mine.json', script: '[{"content": "uploaded answer"}]' });
    for (let i = 0; i < 100 && !events.length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual(['uploaded answer']);
  });
});
