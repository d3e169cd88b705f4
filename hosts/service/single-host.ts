// What a host serving one session answers for the calls that only make sense
// with several (web mode's sessions) or with a key store (the desktop app's).
import { AppApiError, type Request, type Response } from '../../contract/api';
import type { RunSummary } from '../../contract/teaching';

export function ownSessionList(
  scene: string | null,
  running: boolean,
  createdAt: string,
  last: RunSummary | undefined,
): Response<'listSessions'> {
  return [
    {
      id: 'local',
      scene,
      clients: 1,
      observers: 0,
      running,
      createdAt,
      own: true,
      label: null,
      lastRun: last ? { message: last.message, reason: last.reason } : null,
      exercise: null,
    },
  ];
}

export const SINGLE_HOST = {
  observeSession(req: Request<'observeSession'>): Response<'observeSession'> {
    if (req.id === null || req.id === 'local') return { ok: true, message: 'this is your own session', observing: null };
    throw new AppApiError('unsupported', 'this host runs one session: there is no other to observe');
  },
  setSessionLabel(_req: Request<'setSessionLabel'>): Response<'setSessionLabel'> {
    return { ok: false, message: 'this host runs one session: names are for groups in classroom mode' };
  },
  stopGroups(_req: Request<'stopGroups'>): Response<'stopGroups'> {
    throw new AppApiError('unsupported', 'this host runs one session: stopping groups is for the teacher in classroom mode');
  },
  setViewVisible(_req: Request<'setViewVisible'>): Response<'setViewVisible'> {
    // One window on its own machine: the poses cost a local copy, and a hidden window's renderer is throttled by its browser.
    return { ok: true, message: 'this host streams poses to its one window at the full rate' };
  },
  setApiKey(_req: Request<'setApiKey'>): Response<'setApiKey'> {
    throw new AppApiError(
      'unsupported',
      'API keys are stored by the desktop app only (encrypted by the OS keychain). In web mode, set the key in the environment of "skillbridge serve" (e.g. OPENAI_API_KEY).',
    );
  },
  hasApiKey(_req: Request<'hasApiKey'>): Response<'hasApiKey'> {
    return { stored: false };
  },
  clearApiKey(_req: Request<'clearApiKey'>): Response<'clearApiKey'> {
    return { ok: false, message: 'no key store in this host' };
  },
};
