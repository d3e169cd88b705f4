// The evaluation suites by id.
import type { AnySuite } from '../core/suite';
import { alrmSuite } from './alrm/index';
import { dfkiSuite } from './dfki/index';
import { etpSuite } from './etp/index';
import { rtwSuite } from './rtw/index';
import { raiderSuite } from './raider/index';

export const SUITES: readonly AnySuite[] = [
  raiderSuite as AnySuite,
  alrmSuite as AnySuite,
  etpSuite as AnySuite,
  dfkiSuite as AnySuite,
  rtwSuite as AnySuite,
];

export function findSuite(id: string): AnySuite | undefined {
  return SUITES.find((s) => s.id === id);
}
