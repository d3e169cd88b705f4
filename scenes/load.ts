// Loads a scene by id or from a JSON file (Node only: reads the file system).
import { readUserText, UserFileError } from '../base/user-file';
import { SCENE_LIMITS } from './limits';
import type { ResolvedScene } from './resolve';
import { loadMeshTypes } from './mesh-object/load';
import { builtinCatalogue, builtinRobots, builtinScene, isBuiltinScene } from './registry';
import { parseScene, resolveScene } from './resolve';
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
  const scene = parseScene(data, idOrPath);
  const { types, problems } = loadMeshTypes(scene, idOrPath);
  if (problems.length) throw new SceneDataError(idOrPath, problems);
  return resolveScene(scene, builtinCatalogue(), builtinRobots(), idOrPath, types);
}
