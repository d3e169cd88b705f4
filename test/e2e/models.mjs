// Local models in the app's model settings, end to end: `serve --allow-model-pull` with a
// loopback server standing in for the download host (SKILLBRIDGE_MODELS_MIRROR) and a
// one-model catalogue (SKILLBRIDGE_MODELS_CATALOGUE). The progress bar moves, the model
// appears as installed, "Use" selects it as local:ID, and a missing runtime is said plainly.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { assert, openTab, shot, startServer, test, until, workDir } from './harness.mjs';

const FILE = '/org/tiny-GGUF/resolve/main/tiny-e2e.gguf';

/** A GGUF v3 header and filler: what the store checks (magic, version, size, SHA-256). */
function body(size) {
  const b = Buffer.alloc(size, 7);
  b.write('GGUF', 0, 'latin1');
  b.writeUInt32LE(3, 4);
  return b;
}

/** Serves FILE slowly (64 kB every 100 ms, about 5 s) so the bar is seen moving; Range like Hugging Face. */
async function startHost(data) {
  const server = createServer((req, res) => {
    req.resume();
    if (new URL(req.url, 'http://x').pathname !== FILE) {
      res.writeHead(404).end('Entry not found');
      return;
    }
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const start = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, {
      'content-length': data.length - start,
      ...(m ? { 'content-range': `bytes ${start}-${data.length - 1}/${data.length}` } : {}),
    });
    let at = start;
    const next = () => {
      if (res.destroyed) return;
      if (at >= data.length) return void res.end();
      res.write(data.subarray(at, at + 65_536));
      at += 65_536;
      setTimeout(next, 100);
    };
    next();
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => (server.closeAllConnections(), new Promise((r) => server.close(r))),
  };
}

export async function modelFlows({ browser }) {
  const data = body(3_000_000);
  const host = await startHost(data);
  const dir = workDir('models');
  const catalogue = path.join(dir, 'catalogue.json');
  writeFileSync(
    catalogue,
    JSON.stringify([
      {
        id: 'tiny-e2e',
        name: 'Tiny E2E',
        publisher: 'Test',
        quantisedBy: 'Test',
        licence: 'Apache-2.0',
        parameters: '1M',
        quantisation: 'Q8_0',
        sizeBytes: data.length,
        ramBytes: 2 * data.length,
        url: `https://huggingface.co${FILE}`,
        sha256: createHash('sha256').update(data).digest('hex'),
        note: 'a stand-in',
      },
    ]),
  );
  const modelsDir = path.join(dir, 'models');
  const server = startServer(['--allow-model-pull'], {
    SKILLBRIDGE_MODELS_DIR: modelsDir,
    SKILLBRIDGE_MODELS_MIRROR: host.url,
    SKILLBRIDGE_MODELS_CATALOGUE: catalogue,
  });
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 860 } });
  try {
    const page = await ctx.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(await server.url);
    await page.waitForFunction(() => window.__skillbridge?.ready, null, { timeout: 60_000 });
    await openTab('Agent', page);
    const row = page.locator('[data-testid="local-model-tiny-e2e"]');

    await test('model settings: "In the app (GGUF)" lists the catalogue with size, RAM and licence', async () => {
      await page.locator('select[aria-label="Model provider"]').selectOption('local');
      await row.waitFor({ timeout: 15_000 });
      const text = await row.innerText();
      assert(/Tiny E2E/.test(text) && /3\.0 MB/.test(text) && /Apache-2\.0/.test(text) && /not installed/.test(text), `row: ${text}`);
    });

    await test('Download shows a progress bar that moves; the model then shows as installed', async () => {
      await page.getByRole('button', { name: 'Download Tiny E2E' }).click();
      const bar = row.locator('progress');
      await bar.waitFor({ timeout: 20_000 });
      // Read without waiting: once the download ends the bar goes away (counted as the whole file).
      const value = async () => Number((await bar.getAttribute('value', { timeout: 3_000 }).catch(() => null)) ?? data.length);
      // The first reading waits for the bar (it is there: waitFor saw it); later ones may find it gone.
      const first = Number(await bar.getAttribute('value'));
      let later = first;
      await until(async () => (later = await value()) > first, 'the progress bar to move', 30_000);
      assert(later > first, `progress stayed at ${first}`);
      await page.screenshot({ path: shot('e2e-local-model-download.png') });
      await page.locator('[data-testid="local-model-tiny-e2e"][data-installed="yes"]').waitFor({ timeout: 60_000 });
      assert(/installed/.test(await row.innerText()), 'not shown as installed');
      assert(existsSync(path.join(modelsDir, 'tiny-e2e.gguf')), 'no file in the models folder');
    });

    await test('Use selects it as local:ID, and a build without the runtime says so plainly', async () => {
      await page.getByRole('button', { name: 'Use Tiny E2E' }).click();
      await page.locator('summary', { hasText: 'local:tiny-e2e' }).waitFor({ timeout: 5_000 });
      const runtime = page.locator('[data-testid="local-runtime"]');
      if (await runtime.count()) assert(/no in-app model runtime/.test(await runtime.innerText()), await runtime.innerText());
      assert(errors.length === 0, `page errors: ${errors.join('; ')}`);
    });

    await test('Remove takes it out of the folder', async () => {
      await page.getByRole('button', { name: 'Remove Tiny E2E' }).click();
      await page.locator('[data-testid="local-model-tiny-e2e"][data-installed="no"]').waitFor({ timeout: 10_000 });
      assert(!existsSync(path.join(modelsDir, 'tiny-e2e.gguf')), 'the file is still there');
    });
  } finally {
    await ctx.close();
    await server.stop();
    await host.close();
  }
}
