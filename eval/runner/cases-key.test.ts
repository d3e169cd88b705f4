// The case cache's key covers each suite's own sources: a change to the ETP
// generator makes etp-images generate its cases again (its folder is etp's).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SUITES } from '../suites/index';
import { suiteFolder } from './cases';

it("every built-in suite's cache key reads the folder its generator is in", () => {
  const root = path.resolve(__dirname, '../..');
  for (const s of SUITES) expect(existsSync(path.join(root, suiteFolder(s.id))), s.id).toBe(true);
  expect(suiteFolder('etp-images')).toBe('eval/suites/etp');
});
