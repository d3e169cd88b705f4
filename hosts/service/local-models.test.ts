// The app service's local models: list, a pull streamed as model_pull events, cancel, remove,
// and the host policy deciding whether a page may download at all.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppApiError } from '../../contract/api';
import type { ModelPullEvent } from '../../contract/local-models';
import { CATALOGUE } from '../../agents/models/local/catalogue';
import { fakeGguf, type ModelHost, sha256Hex, startModelHost } from '../../test/support/model-host';
import { AppService } from './app-service';

const BODY = fakeGguf(400_000);
const PATH = '/org/repo/resolve/main/tiny.gguf';
let host: ModelHost | undefined;
const services: AppService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.dispose();
  await host?.close();
  host = undefined;
  delete process.env['SKILLBRIDGE_MODELS_MIRROR'];
  delete process.env['SKILLBRIDGE_MODELS_CATALOGUE'];
});

function setup(manageModels: boolean, trickle?: { bytes: number; everyMs: number }) {
  return (async () => {
    host = await startModelHost({ [PATH]: BODY }, trickle ? { trickle } : {});
    const dir = mkdtempSync(join(tmpdir(), 'sb-local-models-'));
    const catalogue = join(dir, 'catalogue.json');
    writeFileSync(
      catalogue,
      JSON.stringify([
        {
          ...CATALOGUE[0]!,
          id: 'tiny',
          name: 'Tiny',
          url: `https://huggingface.co${PATH}`,
          sizeBytes: BODY.length,
          sha256: sha256Hex(BODY),
        },
      ]),
    );
    process.env['SKILLBRIDGE_MODELS_MIRROR'] = host.url;
    process.env['SKILLBRIDGE_MODELS_CATALOGUE'] = catalogue;
    const s = new AppService({ paced: false, modelsDir: join(dir, 'models'), manageModels });
    services.push(s);
    const events: ModelPullEvent[] = [];
    s.onEvent((e) => {
      if (e.type === 'model_pull') events.push(e.event);
    });
    return { s, events };
  })();
}

const until = async (ok: () => boolean): Promise<void> => {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ok()).toBe(true);
};

describe('local models in the app service', () => {
  it('lists, pulls with progress events, shows the model installed, removes it', async () => {
    const { s, events } = await setup(true, { bytes: 40_000, everyMs: 20 });
    const before = await s.listLocalModels({});
    expect(before).toMatchObject({
      canManage: true,
      manageNote: null,
      models: [{ id: 'tiny', installed: false, check: 'sha256', licence: 'Apache-2.0' }],
    });
    expect(before.runtime.message.length).toBeGreaterThan(10);
    expect((await s.pullLocalModel({ id: 'tiny' })).ok).toBe(true);
    await until(() => events.some((e) => e.state !== 'running'));
    const running = events.filter((e) => e.state === 'running');
    expect(running.length).toBeGreaterThan(2);
    expect(running.at(-1)!.received).toBeGreaterThan(running[0]!.received);
    expect(events.at(-1)).toMatchObject({ id: 'tiny', state: 'done', received: BODY.length });
    expect((await s.listLocalModels({})).models[0]).toMatchObject({ installed: true, sizeBytes: BODY.length });
    expect((await s.removeLocalModel({ id: 'tiny' })).ok).toBe(true);
    expect((await s.listLocalModels({})).models[0]!.installed).toBe(false);
  });

  it('cancel stops a download (its part kept) and says so in an event', async () => {
    const { s, events } = await setup(true, { bytes: 8_000, everyMs: 20 });
    await s.pullLocalModel({ id: 'tiny' });
    await until(() => events.length > 1);
    expect((await s.cancelLocalModelPull({ id: 'tiny' })).ok).toBe(true);
    await until(() => events.some((e) => e.state === 'cancelled'));
    expect((await s.listLocalModels({})).models[0]!.partialBytes).toBeGreaterThan(0);
  });

  it('a host that does not allow it refuses downloads and removals from pages, and says how to allow them', async () => {
    const { s } = await setup(false);
    const list = await s.listLocalModels({});
    expect(list.canManage).toBe(false);
    expect(list.manageNote).toMatch(/--allow-model-pull/);
    const e = await s.pullLocalModel({ id: 'tiny' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppApiError);
    expect((e as AppApiError).code).toBe('forbidden');
    await expect(s.removeLocalModel({ id: 'tiny' })).rejects.toThrow(/allow-model-pull/);
  });

  it('an id outside the catalogue is refused at once', async () => {
    const { s } = await setup(true);
    await expect(s.pullLocalModel({ id: 'nope' })).rejects.toThrow(/no model "nope" in the catalogue/);
  });
});
