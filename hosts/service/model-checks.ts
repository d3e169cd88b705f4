// Checking models from the app: Test connection (the capability probe of
// agents/models/probe.ts, answered in the contract's shape) and detecting a
// local Ollama. Neither throws: a failure is a report the panel shows. The
// model comes parsed by the host policy, with its key rule and file grant: a
// `local:` or `scripted:` spec is checked in the folders the host allows, and
// nothing else of the host is opened.
import type { Response } from '../../contract/api';
import type { ImageInput } from '../../contract/schemas';
import { ModelError } from '../../agents/models/model';
import { probeSpec } from '../../agents/models/probe';
import { createModel } from '../../agents/models/spec';
import type { HostModel } from './host-policy';

export async function probeModelSpec(model: HostModel): Promise<Response<'probeModel'>> {
  const spec = model.spec;
  try {
    // A scripted model is built (so a bad script or name fails here, as in a run); there is nothing to probe.
    if (/^scripted:/i.test(spec)) createModel(spec, model.options);
    const { scriptText: _upload, ...options } = model.options;
    const r = await probeSpec(spec, { ...options, timeoutMs: 8000 });
    return {
      spec,
      baseURL: r.baseURL,
      reachable: r.reachable,
      models: r.models.slice(0, 50),
      nativeToolCalls: r.nativeToolCalls,
      textToolCalls: r.textToolCalls,
      latencyMs: r.latencyMs,
      notes: r.notes,
      error: r.error ? { kind: r.error.kind, message: r.error.message, fix: r.error.fix ?? null } : null,
      imageInput: imageInputOf(spec, r.imageInput, r.error !== undefined),
    };
  } catch (e) {
    const error =
      e instanceof ModelError
        ? { kind: e.kind, message: e.message, fix: null }
        : { kind: 'config', message: (e as Error).message, fix: null };
    return {
      spec,
      baseURL: '',
      reachable: false,
      models: [],
      nativeToolCalls: false,
      textToolCalls: false,
      latencyMs: 0,
      notes: [],
      error,
      imageInput: { known: false, why: 'the model could not be checked' },
    };
  }
}

/** What the probe learnt of image input: known only when it sent the test picture. */
export function imageInputOf(spec: string, read: boolean | undefined, failed: boolean): ImageInput {
  if (read !== undefined) return { known: true, value: read };
  if (/^scripted:/i.test(spec)) return { known: false, why: 'a scripted model is not probed' };
  if (/^local:/i.test(spec)) return { known: false, why: 'a model run in the app is not probed for images' };
  if (!/\+images$/i.test(spec)) return { known: false, why: 'the spec does not end with "+images"' };
  return { known: false, why: failed ? 'the connection test failed before the picture' : 'the test picture was not sent' };
}

/** Ollama's OpenAI-compatible endpoint on this machine, if it answers within 0.8 s. */
export async function detectOllama(baseURL = 'http://127.0.0.1:11434/v1'): Promise<Response<'detectModels'>> {
  try {
    const res = await fetch(`${baseURL}/models`, { signal: AbortSignal.timeout(800) });
    if (!res.ok) return { ollama: { baseURL, reachable: false, models: [] } };
    const body = (await res.json()) as { data?: Array<{ id?: unknown }> };
    const models = (body.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
    return { ollama: { baseURL, reachable: true, models: models.slice(0, 100) } };
  } catch {
    return { ollama: { baseURL, reachable: false, models: [] } };
  }
}
