// Section 1 in the browser and on the socket: web mode cannot be broken. An
// oversized or invalid frame closes that socket only; each tab has its own
// session; the host's key goes only where it was stored for; a page cannot name
// files on the host; huge or non-finite values are refused; an adversarial reply
// is parsed quickly; a damaged trace still replays with notes.
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { assert, lastEnd, openTab, out, rawSocket, scriptFile, sendMessage, startServer, state, test, useScript } from './harness.mjs';

export async function hardeningFlows({ url }) {
  const page = state.page;

  await test('a frame over 1 MiB closes that socket with a reason; the server and other tabs go on', async () => {
    const s = await rawSocket(url);
    s.ws.send('x'.repeat(1024 * 1024 + 100));
    const c = await s.closedP;
    assert(c.code === 1009, `close code ${c.code}`);
    const again = await rawSocket(url);
    const r = await again.call('listScenes');
    assert(r.ok && r.value.length > 3, 'a new socket is not served');
    again.close();
    assert(await page.evaluate(() => window.__skillbridge.framesSinceLoad > 0), 'the page stopped drawing');
  });

  await test('a text frame with invalid UTF-8 closes that socket (1007) only', async () => {
    const s = await rawSocket(url);
    s.ws.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false });
    const c = await s.closedP;
    assert(c.code === 1007, `close code ${c.code}`);
    const again = await rawSocket(url);
    assert((await again.call('currentScene')).ok, 'the server stopped answering');
    again.close();
  });

  await test('each tab has its own session: a second tab neither sees nor steers the first', async () => {
    const a = await rawSocket(url);
    const b = await rawSocket(url);
    assert(a.info.session.id !== b.info.session.id, 'two tabs share a session');
    await a.call('loadScene', { id: 'tabletop/boxes' });
    const seenByB = (await b.call('currentScene')).value;
    assert(seenByB.id !== 'tabletop/boxes' || seenByB.generation !== (await a.call('currentScene')).value.generation, 'b sees a’s scene');
    const stop = await b.call('stop');
    assert(stop.value.ok === false, 'b could stop a run of a');
    assert(!b.events.some((e) => e.type === 'scene_loaded' && e.sceneId === 'tabletop/boxes'), 'b received a’s events');
    a.close();
    b.close();
  });

  await test("the host's API key goes only to the base URL it is for, not to one a page names", async () => {
    const seen = [];
    const fake = createServer((req, res) => {
      seen.push(req.headers.authorization ?? null);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'm' }] }));
    });
    await new Promise((r) => fake.listen(0, '127.0.0.1', r));
    const port = fake.address().port;
    const keyed = startServer([], { SKILLBRIDGE_API_KEY: 'sk-host-secret', SKILLBRIDGE_API_BASE_URL: 'http://127.0.0.1:9/v1' });
    try {
      const s = await rawSocket(await keyed.url);
      await s.call('probeModel', { spec: `openai-compatible:m@http://127.0.0.1:${port}/v1` });
      assert(seen.length > 0, 'the fake server was not asked');
      assert(
        seen.every((h) => h === null),
        `a key was sent: ${seen.join(', ')}`,
      );
      s.close();
    } finally {
      await keyed.stop();
      fake.close();
    }
  });

  await test('a page cannot name files on the host for a scripted model', async () => {
    const s = await rawSocket(url);
    await s.call('loadScene', { id: 'tabletop/fruits' });
    for (const model of ['scripted:/etc/passwd.json', 'scripted:../../package.json']) {
      const r = await s.call('run', { message: 'x', workflow: 'flat', model });
      assert(!r.ok && /upload|scripts folder|--scripts|not allowed|cannot/i.test(r.error.message), `${model}: ${JSON.stringify(r)}`);
      assert(!/"name"|skillbridge|root:/.test(r.error.message), `${model}: the error leaks file content`);
    }
    s.close();
  });

  await test('huge and non-finite values are refused with a reason (event positions, messages)', async () => {
    const s = await rawSocket(url);
    for (const to of [
      [1e308, 0, 0],
      [0, 5000, 0],
    ]) {
      const r = await s.call('injectEvent', { type: 'object_moved', object: 'lemon_1', to });
      assert(!r.ok && r.error.code === 'invalid_request', `to ${to}: ${JSON.stringify(r)}`);
    }
    const long = await s.call('run', { message: 'x'.repeat(30_000), workflow: 'flat', model: 'scripted:a.json' });
    assert(!long.ok && /message/.test(long.error.message), JSON.stringify(long).slice(0, 200));
    s.close();
  });

  await test('an adversarial reply (60 000 "[") is parsed in moments; the run ends and the view keeps drawing', async () => {
    const file = scriptFile('brackets', [{ content: '['.repeat(60_000) }, { content: 'done' }]);
    await useScript(file);
    // Display frames the view looked at (it draws only what changed, and nothing moves here): the page kept up.
    const f0 = await page.evaluate(() => window.__skillbridge.displayFrames);
    const t0 = Date.now();
    await sendMessage('say something', { approval: 'auto' });
    await lastEnd().waitFor({ timeout: 20_000 });
    const took = Date.now() - t0;
    assert(took < 10_000, `the run took ${took} ms`);
    const f1 = await page.evaluate(() => window.__skillbridge.displayFrames);
    assert(f1 > f0 + 5, 'the view froze');
  });

  await test('a trace with a damaged middle line still replays, and says which line was left out', async () => {
    const lines = [
      {
        type: 'header',
        format: 'skillbridge-trace/1',
        runId: 'damaged',
        scene: 'tabletop/fruits',
        workflow: 'flat',
        model: 'scripted:x.json',
        seed: 1,
        versions: { skillbridge: '0', node: 'v20' },
        startedAt: new Date().toISOString(),
      },
      { type: 'message', role: 'user', content: 'pick the lemon', t: new Date().toISOString(), elapsedMs: 1 },
    ];
    const text = `${lines.map((l) => JSON.stringify(l)).join('\n')}\n{"type":"tool_call", this is not json\n${JSON.stringify({ type: 'end', reason: 'final', iterations: 1, toolCalls: 0, usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 }, durationMs: 5, t: new Date().toISOString(), elapsedMs: 5 })}\n`;
    const file = path.join(out, 'damaged.jsonl');
    writeFileSync(file, text);
    await openTab('Agent');
    await page.setInputFiles('input[aria-label="Import trace"]', file);
    const note = page.getByRole('alert').filter({ hasText: 'Imported with notes' });
    await note.waitFor({ timeout: 5_000 });
    assert(/line 3/.test(await note.innerText()), `the note says: ${await note.innerText()}`);
    await page.getByRole('button', { name: 'close replay' }).click();
  });
}
