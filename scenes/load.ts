// Loads a scene by id or from a JSON file (Node only: reads the file system).
import { readUserText, UserFileError } from '../base/user-file';
import { SCENE_LIMITS } from './limits';
import type { ResolvedScene } from './resolve';
import { builtinScene, isBuiltinScene, resolveSceneData } from './registry';
import { SceneDataError } from './validation';

export async function loadScene(idOrPath: string): Promise<ResolvedScene> {
  if (isBuiltinScene(idOrPath)) return builtinScene(idOrPath);
  if (!/\.json$/i.test(idOrPath)) return builtinScene(idOrPath); // throws "unknown scene" with hints
  let text: string;
  try {
    text = await readUserText(idOrPath, { maxBytes: SCENE_LIMITS.fileBytes });
  } catch (e) {
    if (e instanceof UserFileError && e.problem === 'too-large') {
      throw new SceneDataError(idOrPath, [`${e.reason.replace('are read', 'are allowed')} for a scene file`]);
    }
    throw new SceneDataError(idOrPath, [e instanceof UserFileError ? e.reason : `cannot read it (${String(e)})`]);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new SceneDataError(idOrPath, [`not valid JSON: ${(e as Error).message}`]);
  }
  return resolveSceneData(data, idOrPath);
}
