// Loads a scene by id or from a JSON file (Node only: reads the file system).
import { readFile, stat } from 'node:fs/promises';
import { SCENE_LIMITS } from './limits';
import type { ResolvedScene } from './resolve';
import { builtinScene, isBuiltinScene, resolveSceneData } from './registry';
import { SceneDataError } from './validation';

export async function loadScene(idOrPath: string): Promise<ResolvedScene> {
  if (isBuiltinScene(idOrPath)) return builtinScene(idOrPath);
  if (!/\.json$/i.test(idOrPath)) return builtinScene(idOrPath); // throws "unknown scene" with hints
  let text: string;
  try {
    const size = (await stat(idOrPath)).size;
    if (size > SCENE_LIMITS.fileBytes) {
      throw new SceneDataError(idOrPath, [`the file is ${size} bytes; scene files may be at most ${SCENE_LIMITS.fileBytes} bytes`]);
    }
    text = await readFile(idOrPath, 'utf8');
  } catch (e) {
    if (e instanceof SceneDataError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    throw new SceneDataError(idOrPath, [code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? String(e)})`]);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SceneDataError(idOrPath, [`not valid JSON: ${(e as Error).message}`]);
  }
  return resolveSceneData(data, idOrPath);
}
