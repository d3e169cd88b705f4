// The evaluation suites by id.
import type { AnySuite } from '../core/suite';
import { alrmSuite } from './alrm/index';
import { dfkiSuite } from './dfki/index';
import { etpSuite } from './etp/index';
import { etpImagesSuite } from './etp/images';
import { rtwSuite } from './rtw/index';
import { loadSuiteFile } from './file/index';
import { raiderSuite } from './raider/index';
import type { SuiteFile } from '../../base/host-refs';

export const SUITES: readonly AnySuite[] = [
  raiderSuite as AnySuite,
  alrmSuite as AnySuite,
  etpSuite as AnySuite,
  etpImagesSuite as AnySuite,
  dfkiSuite as AnySuite,
  rtwSuite as AnySuite,
];

export function findSuite(id: string): AnySuite | undefined {
  return SUITES.find((s) => s.id === id);
}

/** The suite a worker runs: a user's suite file, else the built-in suite of that id. */
export function suiteOf(init: { suite: string; suiteFile?: SuiteFile }): AnySuite | undefined {
  return init.suiteFile ? loadSuiteFile(init.suiteFile) : findSuite(init.suite);
}
