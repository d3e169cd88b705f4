// The evaluation suites by id.
import type { AnySuite } from '../core/suite';
import { alrmSuite } from './alrm/index';

export const SUITES: readonly AnySuite[] = [alrmSuite as AnySuite];

export function findSuite(id: string): AnySuite | undefined {
  return SUITES.find((s) => s.id === id);
}
