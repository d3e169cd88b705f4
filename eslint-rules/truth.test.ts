// The belief rule is enforced by lint: the files that answer tools for the
// simulated robot may not import ground truth.
import path from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { ROBOT_VOICE, truthRestrictions } from './truth.js';

const root = path.resolve(import.meta.dirname, '..');

function lint(relFile: string, code: string): string[] {
  const linter = new Linter({ cwd: root });
  return linter
    .verify(
      code,
      [
        { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
        { files: ROBOT_VOICE, rules: { 'no-restricted-imports': ['error', truthRestrictions] } },
      ],
      path.join(root, relFile),
    )
    .map((m) => m.message);
}

describe('the belief rule (lint)', () => {
  it('refuses ground truth in the files that speak for the robot', () => {
    for (const file of ROBOT_VOICE) {
      expect(lint(file, "import { locationOf } from '../../sim/world/location';")[0]).toContain('ground truth');
      expect(lint(file, "import { geoObjects } from '../../sim/perception/geo';")[0]).toContain('ground truth');
      expect(lint(file, "import { worldFacts } from '../../sim/perception/snapshot';")[0]).toContain('ground truth');
      expect(lint(file, "import { distanceToTarget } from '../../sim/perception/distance';")[0]).toContain('ground truth');
    }
  });

  it('lets them read the belief, and lets SimControl read the truth', () => {
    expect(lint('robot/sim/perception.ts', "import { snapshotFacts } from '../../sim/perception/snapshot';")).toEqual([]);
    expect(lint('robot/sim/perception.ts', "import { believedGeo } from '../../sim/perception/believed';")).toEqual([]);
    expect(lint('robot/sim/control.ts', "import { worldFacts } from '../../sim/perception/snapshot';")).toEqual([]);
  });
});
