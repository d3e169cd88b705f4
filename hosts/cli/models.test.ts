// skillbridge models: through main() against a loopback download host standing in for
// Hugging Face (SKILLBRIDGE_MODELS_MIRROR), in a temporary folder.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../agents/models/local/catalogue';
import { fakeGguf, type ModelHost, sha256Hex, startModelHost } from '../../test/support/model-host';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

// Every folder a test makes is removed after it (files a test keeps outside the models folder go in a folder of their own).
const made: string[] = [];
const dir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'skillbridge-cli-models-'));
  made.push(d);
  return d;
};
const small = CATALOGUE.find((c) => c.sha256 === null)!;

let host: ModelHost | undefined;
afterEach(async () => {
  delete process.env['SKILLBRIDGE_MODELS_MIRROR'];
  delete process.env['SKILLBRIDGE_MODELS_CATALOGUE'];
  await host?.close();
  host = undefined;
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('skillbridge models', () => {
  it('list shows the catalogue with sizes, RAM, licences and what is installed', async () => {
    const d = dir();
    const r = await cli('models', 'list', '--dir', d);
    expect(r.code).toBe(0);
    for (const c of CATALOGUE) expect(r.out).toContain(c.id);
    expect(r.out).toMatch(/Apache-2\.0/);
    expect(r.out).toMatch(/not installed/);
    expect(r.out).toMatch(/unverified/);
    expect(r.out).toContain(`Folder: ${d}`);
    const j = JSON.parse((await cli('models', '--dir', d, '--json')).out) as { dir: string; models: { id: string; installed: boolean }[] };
    expect(j.dir).toBe(d);
    expect(j.models.map((m) => m.id)).toEqual(CATALOGUE.map((c) => c.id));
    expect(j.models.every((m) => !m.installed)).toBe(true);
  });

  it('pull downloads from the host with progress lines, then list says installed; add and rm', async () => {
    const d = dir();
    const body = fakeGguf(200_000);
    host = await startModelHost({ '/org/repo/resolve/main/tiny.gguf': body }, { trickle: { bytes: 20_000, everyMs: 5 } });
    process.env['SKILLBRIDGE_MODELS_MIRROR'] = host.url;
    const catalogue = join(dir(), 'catalogue.json');
    const tiny = {
      ...small,
      id: 'tiny',
      url: 'https://huggingface.co/org/repo/resolve/main/tiny.gguf',
      sizeBytes: body.length,
      sha256: sha256Hex(body),
    };
    writeFileSync(catalogue, JSON.stringify([tiny]));
    process.env['SKILLBRIDGE_MODELS_CATALOGUE'] = catalogue;
    const r = await cli('models', 'pull', 'tiny', '--dir', d);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/tiny: [1-9]0% \(\d+ kB of 200 kB, [\d.]+ [kM]?B\/s\)/);
    expect(r.err).toMatch(/tiny: 100% \(200 kB of 200 kB/);
    expect(r.out).toMatch(/tiny: 200 kB in .*tiny\.gguf \(SHA-256 checked\)\. Use it: --model local:tiny/);
    expect(readFileSync(join(d, 'tiny.gguf')).equals(body)).toBe(true);
    expect((await cli('models', 'list', '--dir', d)).out).toMatch(/tiny\s.*\sinstalled/);

    const file = join(dir(), 'mine.gguf');
    writeFileSync(file, fakeGguf(2_000, 3));
    const added = await cli('models', 'add', file, '--dir', d, '--name', 'mine');
    expect(added.code).toBe(0);
    expect(added.out).toMatch(/mine: added \((hard-link|symlink|copy)\).*local:mine/);
    expect((await cli('models', 'list', '--dir', d)).out).toMatch(/mine\s+mine\s+2 kB\s+\?\s+\(your file\)\s+installed/);
    expect((await cli('models', 'rm', 'mine', '--dir', d)).code).toBe(0);
    expect(existsSync(join(d, 'mine.gguf'))).toBe(false);
    expect(existsSync(file)).toBe(true);

    writeFileSync(catalogue, JSON.stringify([{ ...tiny, sizeBytes: -1 }]));
    const bad = await cli('models', 'list', '--dir', d);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/SKILLBRIDGE_MODELS_CATALOGUE=.*entry 0\.sizeBytes/);
  });

  it('an unreachable host is one line saying how to get the file another way', async () => {
    host = await startModelHost({});
    const url = host.url;
    await host.close();
    host = undefined;
    process.env['SKILLBRIDGE_MODELS_MIRROR'] = url;
    const r = await cli('models', 'pull', small.id, '--dir', dir());
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/cannot reach 127\.0\.0\.1.*models add FILE/);
    const j = await cli('models', 'pull', small.id, '--dir', dir(), '--json');
    expect(JSON.parse(j.out)).toMatchObject({ error: { code: 'unreachable' } });
  });

  it('bad input: one line, exit 2', async () => {
    const d = dir();
    const cases: [string[], RegExp][] = [
      [['models', 'pull', 'no-such-model', '--dir', d], /no model "no-such-model" in the catalogue.*Models: /],
      [['models', 'pull', '--dir', d], /give a model id/],
      [['models', 'rm', 'x', '--dir', d], /no model "x"/],
      [['models', 'add', join(d, 'nothing.gguf'), '--dir', d], /no such file/],
      [['models', 'frob', '--dir', d], /unknown models command "frob"/],
    ];
    for (const [argv, re] of cases) {
      const r = await cli(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.err, argv.join(' ')).toMatch(re);
      expect(r.err.trim().split('\n'), argv.join(' ')).toHaveLength(1);
    }
    const notModel = join(d, 'notes.gguf');
    writeFileSync(notModel, 'plain text');
    const j = await cli('models', 'add', notModel, '--dir', d, '--json');
    expect(j.code).toBe(2);
    expect(JSON.parse(j.out)).toMatchObject({ error: { code: 'not-gguf' } });
  });
});
