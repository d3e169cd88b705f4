// Where local GGUF models live, and how `local:NAME` names one of them. Shared by the
// built-in local provider (which loads a file) and the model store (`skillbridge models
// list|pull|rm`, the app's model settings), so both agree on one folder per user.
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/**
 * The user's models folder: SKILLBRIDGE_MODELS_DIR when set; otherwise the platform's
 * per-user data folder + `skillbridge/models` (the desktop app passes its own
 * `userData/models` instead).
 */
export function defaultModelsDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  const override = env.SKILLBRIDGE_MODELS_DIR;
  if (override) return resolve(override);
  const home = env.HOME ?? homedir();
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'skillbridge', 'models');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'skillbridge', 'models');
  return join(env.XDG_DATA_HOME ?? join(home, '.local', 'share'), 'skillbridge', 'models');
}

/** True when the part after `local:` names a file rather than a catalogue model id. */
export function namesFile(name: string): boolean {
  return name.toLowerCase().endsWith('.gguf') || name.includes('/') || name.includes('\\');
}

/**
 * The GGUF file a `local:NAME` spec means: a path (relative to cwd) when NAME names a file,
 * else `<modelsDir>/<NAME>.gguf` (the store keeps one file per catalogue id).
 */
export function localModelFile(name: string, modelsDir: string = defaultModelsDir(), cwd: string = process.cwd()): string {
  if (namesFile(name)) return isAbsolute(name) ? name : resolve(cwd, name);
  return join(modelsDir, `${name}.gguf`);
}
