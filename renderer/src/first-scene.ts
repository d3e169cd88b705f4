// The scene list and the scene loaded, asked for as soon as the host is
// connected: the first frame waits for them, so they travel while the rest of
// the page's scripts load and React mounts, rather than after.
import type { AppApi } from '../../contract/api';
import type { SceneMeta, SceneSummary } from '../../contract/schemas';
import type { Connection } from './connect';

/** What the entry point started before the app's scripts had loaded. */
export interface Start {
  connection: Promise<Connection>;
  /** The first scene's metadata, asked for on connecting (null without a host). */
  firstScene: Promise<FirstScene | null>;
}

export interface FirstScene {
  /** Both answers, or the first error. */
  ready: Promise<[SceneSummary[], SceneMeta | null]>;
  /** The answers once they came (read synchronously when the app mounts). */
  value?: [SceneSummary[], SceneMeta | null];
}

export function askFirstScene(api: Pick<AppApi, 'listScenes' | 'currentScene'>): FirstScene {
  const first: FirstScene = { ready: Promise.all([api.listScenes({}), api.currentScene({})]) };
  first.ready.then(
    (v) => {
      first.value = v;
    },
    // The app reports the error when it reads `ready`.
    () => undefined,
  );
  return first;
}
