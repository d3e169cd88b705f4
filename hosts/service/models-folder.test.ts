// A host configured with a models folder resolves `local:NAME` there everywhere: in
// its runs, in the store, and in an evaluation's worker thread — not in the folder
// its environment (SKILLBRIDGE_MODELS_DIR) or the user's default names.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../../test/support/tiny-gguf';
import { createModel } from '../../agents/models/spec';
import { openResults } from '../../eval/results/index';
import { runEval } from '../../eval/runner/runner';
import { HostPolicy } from './host-policy';

let dir: string;
let hostDir: string;
let envDir: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sb-models-folder-'));
  hostDir = path.join(dir, 'host-models');
  envDir = path.join(dir, 'env-models');
  mkdirSync(hostDir);
  mkdirSync(envDir);
  writeTinyGguf(path.join(hostDir, 'tiny.gguf'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the host's models folder", () => {
  it('is where runs and evaluations of a page resolve local:NAME, whatever the environment names', async () => {
    const policy = new HostPolicy({ modelsDir: hostDir, env: { SKILLBRIDGE_MODELS_DIR: envDir } });
    expect(policy.modelsDir()).toBe(hostDir);
    expect(policy.model('local:tiny').options.localModels).toEqual({ dir: hostDir });
    const setup = await policy.evalModel('local:tiny');
    expect(setup.files.localModels).toEqual({ dir: hostDir });
    expect(setup.env['SKILLBRIDGE_MODELS_DIR']).toBe(envDir);
    // What the evaluation worker builds: found in the host's folder; the environment's alone would not have it.
    expect(() =>
      createModel('local:tiny', { env: setup.env, scriptFiles: setup.files.scripts, localModels: setup.files.localModels }),
    ).not.toThrow();
    expect(() => createModel('local:tiny', { env: setup.env })).toThrow(/No model file at .*env-models/);
  });

  it("reaches an evaluation's worker thread", async () => {
    const out = path.join(dir, 'eval');
    const policy = new HostPolicy({ modelsDir: hostDir, env: { SKILLBRIDGE_MODELS_DIR: envDir } });
    const setup = await policy.evalModel('local:tiny');
    const r = await runEval({
      suite: policy.suite('alrm'),
      workflow: 'flat',
      offProtocol: true,
      filter: 'boxes/3',
      sample: 1,
      model: setup.spec,
      outDir: out,
      inline: false,
      limits: { maxIterations: 1, timeLimitS: 300 },
      env: { ...process.env, SKILLBRIDGE_MODELS_DIR: envDir, SKILLBRIDGE_LOCAL_MAX_TOKENS: '16' },
      files: setup.files,
    });
    const db = openResults(out, { mode: 'read' });
    const results = db.results(r.run.runId);
    db.close();
    expect(results).toHaveLength(1);
    // The random model's reply scores nothing; what matters is that the model was found and ran.
    expect(results[0]!.error ?? '').not.toMatch(/No model file/);
    expect(results[0]!.status).not.toBe('error');
    // The model's process ran in the worker (the bundled worker finds its script beside it).
    expect(results[0]!.tokensOut).toBeGreaterThan(0);
  }, 300_000);
});
