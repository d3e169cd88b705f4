// Globals: the Electron preload's typed bridge, and the view's probe that tests
// and the app benchmark read.
import type { AppApi } from '../../contract/api';
import type { ViewProbe } from './view/probe';

declare global {
  interface Window {
    /** Present in the desktop app (the preload exposes it); absent in web mode. */
    api?: AppApi;
    __skillbridge?: ViewProbe;
    /** While runs are watched again: the timeline and what it shows (tests read it). */
    __skillbridgeReplay?: {
      readonly t: number;
      duration: number;
      playing: boolean;
      runs: Array<{ runId: string; frames: number; events: number }>;
      bodyAt(run: number, id: string): [number, number, number] | null;
      eventIndex(run: number): number;
    };
  }
}

export {};
