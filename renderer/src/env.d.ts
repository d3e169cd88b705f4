// Globals: the Electron preload's typed bridge, and the view's probe that tests
// and the app benchmark read.
import type { AppApi } from '../../contract/api';
import type { ViewProbe } from './view/probe';

declare global {
  interface Window {
    /** Present in the desktop app (the preload exposes it); absent in web mode. */
    api?: AppApi;
    __skillbridge?: ViewProbe;
  }
}

export {};
