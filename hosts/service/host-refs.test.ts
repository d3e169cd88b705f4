// The proof by types that no file read, model or run lookup in hosts/ and eval/
// takes a plain string from a request: every entry point that reads a suite
// file, builds or probes a model, looks a run up or reads a session's trace takes
// a host ref, and a string does not type-check there (`npm run typecheck` fails on
// a line below that compiles). Only the host policy makes host refs (the lint rule
// host-refs/minted-by-policy refuses a cast to one anywhere else).
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { LocalModelId, ModelFiles, ModelSpec, RunId, SuiteFile, SuiteRef, TraceRef } from '../../base/host-refs';
import type { EvalOptions } from '../../eval/runner/runner';
import type { CaseRunInput } from '../../eval/runner/run-case';
import type { WorkerInit } from '../../eval/runner/protocol';
import { loadSuiteFile } from '../../eval/suites/file/index';
import { loadRunsById } from '../../eval/report/load';
import type { AdmittedJob } from '../../eval/scale/queue-worker';
import type { AgentHost, ParsedRun } from './agent';
import type { EvalHost, EvalStart } from './eval-host';
import type { LocalModelsHost } from './local-models';
import { probeModelSpec } from './model-checks';
import { HostPolicy, TERMINAL } from './host-policy';

/** Never called: each line states what the compiler refuses. */
function refusedByTheCompiler(agent: AgentHost, evals: EvalHost, models: LocalModelsHost): void {
  const fromRequest = '/etc/passwd';
  // @ts-expect-error a suite file is a SuiteFile the policy allowed, not a path from a request
  loadSuiteFile(fromRequest);
  // @ts-expect-error run ids are looked up, never read as paths: RunId only
  loadRunsById([fromRequest], 'eval-results');
  // @ts-expect-error the evaluation runner takes a SuiteRef
  const a: Pick<EvalOptions, 'suite'> = { suite: fromRequest };
  // @ts-expect-error … and a ModelSpec
  const b: Pick<EvalOptions, 'model'> = { model: 'scripted:/etc/passwd' };
  // @ts-expect-error … and a file grant only a policy gives (no default 'any')
  const c: Pick<EvalOptions, 'files'> = { files: { scripts: 'any', localModels: 'any' } };
  // @ts-expect-error a case runs a ModelSpec
  const d: Pick<CaseRunInput, 'model'> = { model: 'local:/etc/passwd' };
  // @ts-expect-error an evaluation thread reads only a SuiteFile
  const e: Pick<WorkerInit, 'suiteFile'> = { suiteFile: fromRequest };
  // @ts-expect-error a queue job's run id is a RunId the worker's policy parsed
  const f: Pick<AdmittedJob, 'runId'> = { runId: '../../escape' };
  // @ts-expect-error the Evaluate view starts only what the policy parsed
  void evals.startEval({ suite: 'alrm', model: 'oracle' });
  // @ts-expect-error … and reports only a RunId
  evals.evalReport({ runId: fromRequest });
  // @ts-expect-error a run's model comes from the policy, with its key rule and file grant
  void agent.run(undefined as never, { message: 'hi', workflow: 'flat', model: 'scripted:/etc/passwd' });
  // @ts-expect-error Test connection probes only a model the policy parsed
  void probeModelSpec({ spec: 'local:/etc/passwd', options: {} });
  // @ts-expect-error a session's trace by TraceRef
  void agent.exportTrace({ runId: fromRequest });
  // @ts-expect-error a model of the models folder by LocalModelId
  void models.remove({ id: '../x' });
  void [a, b, c, d, e, f];
}

describe('host refs', () => {
  it('are what the entry points take (checked by the compiler above)', () => {
    expect(typeof refusedByTheCompiler).toBe('function');
    expectTypeOf<Parameters<typeof loadSuiteFile>[0]>().toEqualTypeOf<SuiteFile>();
    expectTypeOf<EvalOptions['suite']>().toEqualTypeOf<SuiteRef | undefined>();
    expectTypeOf<EvalOptions['model']>().toEqualTypeOf<ModelSpec | undefined>();
    expectTypeOf<EvalOptions['files']>().toEqualTypeOf<ModelFiles>();
    expectTypeOf<EvalOptions['resume']>().toEqualTypeOf<RunId | undefined>();
    expectTypeOf<CaseRunInput['model']>().toEqualTypeOf<ModelSpec>();
    expectTypeOf<EvalStart['suite']>().toEqualTypeOf<SuiteRef>();
    expectTypeOf<ParsedRun['model']['spec']>().toEqualTypeOf<ModelSpec>();
    expectTypeOf<Parameters<AgentHost['exportTrace']>[0]['runId']>().toEqualTypeOf<TraceRef>();
    expectTypeOf<Parameters<LocalModelsHost['remove']>[0]['id']>().toEqualTypeOf<LocalModelId>();
  });

  it('come from the policy, which refuses what a door may not name', async () => {
    const page = new HostPolicy({ scriptFiles: 'none', modelsDir: '/nonexistent-models' });
    expect(() => page.suite('/etc/passwd')).toThrow(/unknown suite/);
    expect(page.suite('alrm')).toEqual({ kind: 'builtin', id: 'alrm' });
    expect(() => page.runId('../x')).toThrow(/not a run id/);
    expect(() => page.traceId('a/b')).toThrow(/not a run id of this session/);
    expect(() => page.localModelId('../x')).toThrow(/not a model id/);
    await expect(page.evalModel('scripted:/etc/passwd')).rejects.toThrow(/reads no script files/);
    await expect(page.evalModel('local:/etc/passwd')).rejects.toThrow(/not a model name/);
    expect(page.modelFiles()).toEqual({ scripts: 'none', localModels: { dir: '/nonexistent-models' } });
    // The command line takes what the person typed.
    expect(TERMINAL.suite('examples/suites/fruits.json')).toMatchObject({ kind: 'file', given: 'examples/suites/fruits.json' });
    expect(TERMINAL.files()).toEqual({ scripts: 'any', localModels: 'any' });
  });
});
