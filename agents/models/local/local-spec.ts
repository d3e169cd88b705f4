// `local:FILE.gguf` and `local:NAME` as a model: which file a spec may load on
// this host, and the runtime's settings from the environment.
import { basename, join } from 'node:path';
import { z } from 'zod';
import { ModelError } from '../model';
import { createLocalModel, type LocalModel } from './local-model';
import { defaultModelsDir, localModelFile } from './models-dir';

/**
 * Where `local:` may load from: any path or models-folder name (the CLI: the person
 * at the terminal typed it), or only a model in this models folder (a host serving
 * pages: a page must not make the host read an arbitrary file as a model).
 */
export type LocalModelFiles = 'any' | { dir: string };

const Count = z.coerce.number().int().positive();

function envCount(env: Readonly<Record<string, string | undefined>>, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const r = Count.safeParse(v);
  if (!r.success)
    throw new ModelError(`${name}="${v}" is not a positive whole number.`, 'config', undefined, {
      fix: `Set ${name} to a number of tokens, or unset it.`,
    });
  return r.data;
}

/** The file `local:NAME` names under this host's rule. */
export function localSpecFile(
  name: string,
  files: LocalModelFiles,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (files === 'any') return localModelFile(name, defaultModelsDir(env as NodeJS.ProcessEnv));
  // A model in the folder: a bare name (or NAME.gguf), no folders, no hidden files.
  if (!/^[\w][\w.-]{0,127}$/.test(name) || basename(name) !== name)
    throw new ModelError(
      `"${name}" is not a model name: this host loads only models in its models folder (local:NAME).`,
      'config',
      undefined,
      {
        fix: 'Name a model from the models folder (skillbridge models list), not a path.',
      },
    );
  return join(files.dir, name.toLowerCase().endsWith('.gguf') ? name : `${name}.gguf`);
}

/**
 * The local model a spec names. Settings: SKILLBRIDGE_LOCAL_MAX_TOKENS (a reply's
 * limit), SKILLBRIDGE_LOCAL_CONTEXT (the largest context to allocate),
 * SKILLBRIDGE_LOCAL_THREADS, SKILLBRIDGE_LOCAL_GPU=1 (use an installed GPU runtime).
 * The model shares its loaded process with the thread's other runs of the same file and settings.
 */
export function localModelFromSpec(
  spec: string,
  name: string,
  files: LocalModelFiles,
  env: Readonly<Record<string, string | undefined>> = process.env,
): LocalModel {
  const file = localSpecFile(name, files, env);
  const maxTokens = envCount(env, 'SKILLBRIDGE_LOCAL_MAX_TOKENS');
  const maxContext = envCount(env, 'SKILLBRIDGE_LOCAL_CONTEXT');
  const threads = envCount(env, 'SKILLBRIDGE_LOCAL_THREADS');
  const gpu = env['SKILLBRIDGE_LOCAL_GPU'];
  return createLocalModel({
    id: spec,
    file,
    // Runs in this thread share the loaded model (model-cache.ts) instead of loading it for each run.
    shared: true,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(maxContext !== undefined ? { maxContext } : {}),
    ...(threads !== undefined ? { threads } : {}),
    ...(gpu === '1' || gpu === 'auto' ? { gpu: 'auto' as const } : gpu === '0' ? { gpu: false as const } : {}),
  });
}
