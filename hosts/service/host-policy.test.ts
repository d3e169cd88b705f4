// One policy per capability at the host boundary: every AppApi method a page can
// call asks the host policy for exactly the capabilities METHOD_POLICY lists,
// and an evaluation started from a page gets the same key and file answers as a run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AppApiError, METHOD_NAMES, type MethodName, dispatch, parseRequest } from '../../contract/api';
import type { AppEvent } from '../../contract/schemas';
import { startOpenAIServer, type OpenAIServer } from '../../test/support/openai-server';
import { AppService } from './app-service';
import { type Capability, HostPolicy, METHOD_POLICY } from './host-policy';

const SAMPLE: { [M in MethodName]: unknown } = {
  listSuites: {},
  startEval: { suite: 'alrm', model: 'openai-compatible:m@http://127.0.0.1:9/v1', sample: 1 },
  stopEval: {},
  listEvalRuns: {},
  evalCases: { runId: 'nope' },
  evalReport: { runId: 'nope' },
  replayCase: { runId: 'nope', caseId: 'c', trial: 1 },
  listScenes: {},
  loadScene: { id: '/etc/scene.json' },
  resetScene: {},
  currentScene: {},
  listToolSets: {},
  listTools: {},
  callTool: { name: 'get_objects', args: {} },
  cancelToolCall: {},
  injectEvent: { type: 'set_battery', percent: 50 },
  getSnapshot: {},
  getBattery: {},
  getRobotSafety: {},
  setSpeed: { factor: 1 },
  getSimState: {},
  setPaused: { paused: false },
  stepPhysics: { steps: 1 },
  getWorldSettings: {},
  setWorldSettings: { seed: 1, noise: { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 0 } },
  run: { message: 'hi', workflow: 'flat', model: 'scripted:/etc/passwd' },
  stop: {},
  answerApproval: { id: 'x', decision: 'deny' },
  answerAsk: { id: 'x', answer: 'y' },
  listWorkflows: {},
  probeModel: { spec: 'openai-compatible:m@http://127.0.0.1:9/v1' },
  detectModels: {},
  exportTrace: { runId: 'nope' },
  listRuns: {},
  getRunReplay: { runId: 'nope' },
  importTrace: { text: '' },
  setApiKey: { baseURL: 'http://127.0.0.1:9/v1', key: 'k' },
  hasApiKey: { baseURL: 'http://127.0.0.1:9/v1' },
  clearApiKey: { baseURL: 'http://127.0.0.1:9/v1' },
  listExercises: {},
  addExercise: { text: '{}' },
  checkExercise: { id: 'x' },
  listSessions: {},
  observeSession: { id: null },
  setSessionLabel: { label: 'g' },
  caseReplay: { runId: 'nope', caseId: 'c', trial: 1 },
  stopGroups: { id: null },
  setViewVisible: { visible: false },
  listLocalModels: {},
  pullLocalModel: { id: 'qwen2.5-0.5b-instruct' },
  cancelLocalModelPull: { id: 'qwen2.5-0.5b-instruct' },
  removeLocalModel: { id: 'qwen2.5-0.5b-instruct' },
};

/** Records each capability asked for, and refuses models and files so nothing runs. */
class RecordingPolicy extends HostPolicy {
  asked: Capability[] = [];
  override modelOptions(): never {
    this.asked.push('model');
    throw new AppApiError('forbidden', 'refused by the test policy');
  }
  override async evalModel(): Promise<never> {
    this.asked.push('model');
    throw new AppApiError('forbidden', 'refused by the test policy');
  }
  override sceneFile(): boolean {
    this.asked.push('scene-file');
    return false;
  }
  override modelStore(): ReturnType<HostPolicy['modelStore']> {
    this.asked.push('model-store');
    return { canManage: false, note: 'refused by the test policy' };
  }
  override keyStore(): ReturnType<HostPolicy['keyStore']> {
    this.asked.push('key-store');
    return super.keyStore();
  }
}

describe('the host policy covers every AppApi method', () => {
  it('has an entry for each method of the contract, and no other', () => {
    expect(Object.keys(METHOD_POLICY).sort()).toEqual([...METHOD_NAMES].sort());
    expect(Object.keys(SAMPLE).sort()).toEqual([...METHOD_NAMES].sort());
  });

  it('each method asks the policy for exactly the capabilities the table lists', async () => {
    const policy = new RecordingPolicy();
    const s = new AppService({ paced: false, policy, evalDir: mkdtempSync(join(tmpdir(), 'sb-policy-')) });
    try {
      await s.loadScene({ id: 'tabletop/fruits' });
      const seen: Record<string, Capability[]> = {};
      for (const m of METHOD_NAMES) {
        policy.asked = [];
        try {
          await dispatch(s, m, parseRequest(m, SAMPLE[m]) as never);
        } catch {
          // refusals and unknown ids are answers too; what was asked is what counts
        }
        seen[m] = [...new Set(policy.asked)];
        if (m === 'loadScene') await s.loadScene({ id: 'tabletop/fruits' });
      }
      expect(seen).toEqual(Object.fromEntries(METHOD_NAMES.map((m) => [m, [...METHOD_POLICY[m]]])));
    } finally {
      await s.dispose();
    }
  }, 60_000);
});

describe('an evaluation started from a page', () => {
  const saved = { key: process.env['SKILLBRIDGE_API_KEY'], base: process.env['SKILLBRIDGE_API_BASE_URL'] };
  const servers: OpenAIServer[] = [];
  const sessions: AppService[] = [];
  afterEach(async () => {
    for (const s of sessions.splice(0)) await s.dispose();
    for (const s of servers.splice(0)) await s.close();
  });
  afterAll(() => {
    if (saved.key === undefined) delete process.env['SKILLBRIDGE_API_KEY'];
    else process.env['SKILLBRIDGE_API_KEY'] = saved.key;
    if (saved.base === undefined) delete process.env['SKILLBRIDGE_API_BASE_URL'];
    else process.env['SKILLBRIDGE_API_BASE_URL'] = saved.base;
  });
  const session = (opts: ConstructorParameters<typeof AppService>[0] = {}) => {
    const s = new AppService({ paced: false, evalDir: mkdtempSync(join(tmpdir(), 'sb-policy-eval-')), ...opts });
    sessions.push(s);
    return s;
  };

  it("never sends the host's SKILLBRIDGE_API_KEY to a server the page names", async () => {
    process.env['SKILLBRIDGE_API_KEY'] = 'sk-HOSTSECRET-123';
    delete process.env['SKILLBRIDGE_API_BASE_URL'];
    const page = await startOpenAIServer([{ content: 'done' }, { content: 'done' }, { content: 'done' }]);
    servers.push(page);
    const s = session();
    const events: AppEvent[] = [];
    s.onEvent((e) => events.push(e));
    await s.startEval({ suite: 'alrm', model: `openai-compatible:m@${page.url}`, workflow: 'alrm/tap', sample: 1 });
    await expect.poll(() => events.some((e) => e.type === 'eval' && e.event.kind === 'ended'), { timeout: 120_000 }).toBe(true);
    expect(page.requests.length).toBeGreaterThan(0);
    expect(page.requests.map((r) => r.headers['authorization'] ?? null).every((h) => h === null)).toBe(true);
  }, 150_000);

  it('reads no host file named as scripted:PATH, and the answer is the same whether the path exists or not', async () => {
    const s = session();
    const answers: string[] = [];
    for (const file of ['/etc/passwd', '/etc', '/no/such/file.json', join(process.cwd(), 'package.json')]) {
      const e = await s.startEval({ suite: 'alrm', model: `scripted:${file}`, sample: 1 }).catch((x: unknown) => x as AppApiError);
      expect(e).toBeInstanceOf(AppApiError);
      answers.push((e as AppApiError).message);
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/upload the script/);
  });
});
