// The app's side of the model store: lists the host's models folder for a page, runs
// downloads in the background with progress as `model_pull` events, cancels and removes.
// Whether a page may download or remove (it writes to the host's disk) is the host policy's
// answer (`modelStore()`): the desktop app says yes, `skillbridge serve` only with
// --allow-model-pull, and never for a classroom group (the connection refuses those calls).
import { AppApiError, type Request, type Response } from '../../contract/api';
import type { AppEvent } from '../../contract/schemas';
import type { ModelPullEvent } from '../../contract/local-models';
import { loadCatalogue } from '../../agents/models/local/catalogue';
import { defaultModelsDir } from '../../agents/models/local/models-dir';
import { ModelStore } from '../../agents/models/local/store';
import { ModelStoreError } from '../../agents/models/local/store-errors';
import { parseModelSpec } from '../../agents/models/spec';
import type { LocalModelId } from '../../base/host-refs';

export interface ModelStoreAccess {
  canManage: boolean;
  /** Why a page may not manage models here, and how the host allows it. */
  note: string | null;
}

export interface LocalModelsHostOptions {
  dir?: string;
  emit: (e: AppEvent) => void;
  access: () => ModelStoreAccess;
}

interface Pull {
  ac: AbortController;
  received: number;
  total: number | null;
}

/** Whether this build runs `local:` specs: the provider is registered when its runtime is in. */
export function localRuntime(): { available: boolean; message: string } {
  try {
    parseModelSpec('local:model');
    return { available: true, message: 'local models run inside the app' };
  } catch {
    return {
      available: false,
      message:
        'this build has no in-app model runtime: a local:ID model cannot run here yet. The same .gguf file runs in llama.cpp (llama-server -m FILE --jinja) or LM Studio meanwhile.',
    };
  }
}

function storeMessage(e: unknown): string {
  return e instanceof ModelStoreError ? e.message : `the download failed: ${(e as Error).message ?? String(e)}`;
}

export class LocalModelsHost {
  private store: ModelStore | undefined;
  private readonly pulls = new Map<string, Pull>();

  constructor(private readonly o: LocalModelsHostOptions) {}

  /** Built on first use: the catalogue file (SKILLBRIDGE_MODELS_CATALOGUE) is read then, and a bad one is an answer, not a crash. */
  private open(): ModelStore {
    if (!this.store) {
      try {
        const mirror = process.env['SKILLBRIDGE_MODELS_MIRROR'];
        this.store = new ModelStore(this.o.dir ?? defaultModelsDir(), { catalogue: loadCatalogue(), ...(mirror ? { mirror } : {}) });
      } catch (e) {
        throw new AppApiError('invalid_request', storeMessage(e));
      }
    }
    return this.store;
  }

  private manage(what: string): void {
    const a = this.o.access();
    if (!a.canManage) throw new AppApiError('forbidden', `${what}: ${a.note ?? 'this host does not let pages change its models folder'}`);
  }

  async list(_req?: Request<'listLocalModels'>): Promise<Response<'listLocalModels'>> {
    const access = this.o.access();
    const store = this.open();
    let models;
    try {
      models = await store.list();
    } catch (e) {
      throw new AppApiError('invalid_request', storeMessage(e));
    }
    return {
      dir: store.dir,
      canManage: access.canManage,
      manageNote: access.note,
      runtime: localRuntime(),
      models: models.map((m) => ({
        id: m.id,
        name: m.name,
        source: m.source,
        installed: m.installed,
        sizeBytes: m.sizeBytes,
        partialBytes: m.partialBytes,
        check: m.check,
        ...(m.catalogue
          ? {
              publisher: m.catalogue.publisher,
              licence: m.catalogue.licence,
              ramBytes: m.catalogue.ramBytes,
              quantisation: m.catalogue.quantisation,
              note: m.catalogue.note,
            }
          : {}),
      })),
      pulls: [...this.pulls].map(([id, p]) => ({ id, received: p.received, total: p.total })),
    };
  }

  async pull(req: { id: LocalModelId }): Promise<Response<'pullLocalModel'>> {
    this.manage('downloading a model');
    const store = this.open();
    if (!store.catalogue.some((c) => c.id === req.id))
      throw new AppApiError('invalid_request', `no model "${req.id}" in the catalogue (listLocalModels shows them)`);
    if (this.pulls.has(req.id)) return { ok: true, message: `${req.id} is already downloading` };
    const p: Pull = { ac: new AbortController(), received: 0, total: null };
    this.pulls.set(req.id, p);
    const send = (event: Omit<ModelPullEvent, 'id'>): void => this.o.emit({ type: 'model_pull', event: { id: req.id, ...event } });
    let rate = 0;
    void store
      .pull(req.id, {
        signal: p.ac.signal,
        onProgress: (g) => {
          p.received = g.received;
          p.total = g.total;
          rate = g.bytesPerSecond;
          send({ state: 'running', received: g.received, total: g.total, bytesPerSecond: g.bytesPerSecond });
        },
        onNotice: (message) => send({ state: 'running', received: p.received, total: p.total, bytesPerSecond: rate, message }),
      })
      .then(
        (r) =>
          send({
            state: 'done',
            received: r.bytes,
            total: r.bytes,
            bytesPerSecond: rate,
            message: r.alreadyInstalled
              ? `${req.id} is already installed`
              : `${req.id} is installed${r.sha256 ? ' (SHA-256 checked)' : ' (size checked; unverified)'}`,
          }),
        (e: unknown) => {
          const cancelled = e instanceof ModelStoreError && e.code === 'aborted';
          send({
            state: cancelled ? 'cancelled' : 'failed',
            received: p.received,
            total: p.total,
            bytesPerSecond: 0,
            message: storeMessage(e),
          });
        },
      )
      .finally(() => this.pulls.delete(req.id));
    return { ok: true, message: `downloading ${req.id}` };
  }

  async cancel(req: { id: LocalModelId }): Promise<Response<'cancelLocalModelPull'>> {
    this.manage('stopping a download');
    const p = this.pulls.get(req.id);
    if (!p) return { ok: false, message: `${req.id} is not downloading` };
    p.ac.abort();
    return { ok: true, message: `stopping ${req.id}; the next pull resumes it` };
  }

  async remove(req: { id: LocalModelId }): Promise<Response<'removeLocalModel'>> {
    this.manage('removing a model');
    try {
      const r = await this.open().rm(req.id);
      return { ok: true, message: `removed ${r.removed.length === 1 ? 'the model' : 'the model and its unfinished download'} ${req.id}` };
    } catch (e) {
      if (e instanceof ModelStoreError) return { ok: false, message: e.message };
      throw e;
    }
  }

  dispose(): void {
    for (const p of this.pulls.values()) p.ac.abort();
  }
}
