// One policy per capability at the host boundary: every AppApi method a page can
// call asks the host policy for exactly the capabilities METHOD_POLICY lists,
// and an evaluation started from a page gets the same key and file answers as a run.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AppApiError, METHODS, METHOD_NAMES, type MethodName, dispatch, parseRequest } from '../../contract/api';
import type { HostFieldKind } from '../../contract/host-fields';
import { textFields } from '../../test/support/schema-fields';
import type { AppEvent } from '../../contract/schemas';
import { startOpenAIServer, type OpenAIServer } from '../../test/support/openai-server';
import { AppService } from './app-service';
import { type Capability, FIELD_CAPABILITY, HostPolicy, METHOD_POLICY } from './host-policy';

const SAMPLE: { [M in MethodName]: unknown } = {
  listSuites: {},
  startEval: { suite: 'alrm', model: 'openai-compatible:m@http://127.0.0.1:9/v1', sample: 1 },
  stopEval: {},
  listEvalRuns: {},
  evalCases: { runId: 'nope' },
  evalReport: { runId: 'nope' },
  caseTranscript: { runId: 'nope', caseId: 'c', trial: 1 },
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
  getRunImage: { runId: 'nope', image: 'call_1-1.png' },
  getCaseImage: { runId: 'nope', caseId: 'c', trial: 1, image: 'call_1-1.png' },
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
  putRobotFile: { path: 'arm/arm.urdf', offset: 0, data: '' },
  useRobot: { robot: 'own' },
};

/** Records each capability asked for and the value it parsed; refuses models so nothing runs. */
class RecordingPolicy extends HostPolicy {
  asked: Capability[] = [];
  parsed: Array<[Capability, string]> = [];
  private note(c: Capability, value?: string): void {
    this.asked.push(c);
    if (value !== undefined) this.parsed.push([c, value]);
  }
  override model(spec: string): never {
    this.note('model', spec);
    throw new AppApiError('forbidden', 'refused by the test policy');
  }
  override async evalModel(spec: string): Promise<never> {
    this.note('model', spec);
    throw new AppApiError('forbidden', 'refused by the test policy');
  }
  override suite(given: string, field?: string): ReturnType<HostPolicy['suite']> {
    this.note('suite', given);
    return super.suite(given, field);
  }
  override runId(id: string, field?: string): ReturnType<HostPolicy['runId']> {
    this.note('run-id', id);
    return super.runId(id, field);
  }
  override traceId(id: string, field?: string): ReturnType<HostPolicy['traceId']> {
    this.note('trace', id);
    return super.traceId(id, field);
  }
  override traceImageId(id: string, field?: string): ReturnType<HostPolicy['traceImageId']> {
    this.note('trace', id);
    return super.traceImageId(id, field);
  }
  override scene(id: string): ReturnType<HostPolicy['scene']> {
    // The scene the test itself loads between methods is not the method's.
    if (id !== 'tabletop/fruits') this.note('scene-file', id);
    return super.scene(id);
  }
  override serverUrl(url: string, field?: string): ReturnType<HostPolicy['serverUrl']> {
    this.note('server-url', url);
    return super.serverUrl(url, field);
  }
  override robotUploadPath(given: string, field?: string): ReturnType<HostPolicy['robotUploadPath']> {
    this.note('robot-upload', given);
    return super.robotUploadPath(given, field);
  }
  override localModelId(id: string, field?: string): ReturnType<HostPolicy['localModelId']> {
    this.note('local-model', id);
    return super.localModelId(id, field);
  }
  override modelStore(): ReturnType<HostPolicy['modelStore']> {
    this.note('model-store');
    return { canManage: false, note: 'refused by the test policy' };
  }
  override keyStore(): ReturnType<HostPolicy['keyStore']> {
    this.note('key-store');
    return super.keyStore();
  }
}

/**
 * The string fields of AppApi requests that name nothing of the host's: text a person wrote, names of
 * things in the session's memory (tools, tool sets, workflows, approvals, questions, cards, sessions) or of
 * the simulated world. A new string field must be marked with its host reference (contract/host-fields.ts)
 * or added here with the reason, so it cannot name a file, a server or a model unseen by the policy.
 */
const PLAIN_FIELDS: Record<string, string> = {
  'startEval.workflow': 'a workflow id, looked up in the table of workflows',
  'replayCase.caseId': "a case id, looked up in the run's recorded rows",
  'caseReplay.caseId': "a case id, looked up in the run's recorded rows",
  'getCaseImage.caseId': "a case id, looked up in the run's recorded rows",
  'caseTranscript.caseId': "a case id, looked up in the run's recorded rows",
  'listTools.set': 'a tool-set name, looked up in the table of sets',
  'callTool.name': "a tool name of the loaded scene's set",
  'callTool.set': 'a tool-set name, looked up in the table of sets',
  'callTool.args': "the tool's arguments, validated by the tool's own schema (the MCP walk covers them)",
  'injectEvent.by': 'who pressed the e-stop, for the trace',
  'injectEvent.person': 'a person of the simulated world',
  'injectEvent.text': 'what that person said',
  'injectEvent.object': 'an object of the simulated world',
  'run.message': "the person's message to the model",
  'run.workflow': 'a workflow id, looked up in the table of workflows',
  'run.toolSet': 'a tool-set name, looked up in the table of sets',
  'run.systemPrompt': "the person's edited system prompt",
  'run.script': 'an uploaded script (its content; no file is named)',
  'answerApproval.id': 'an approval the running workflow asked for, in memory',
  'answerApproval.note': "the person's note to the model",
  'answerAsk.id': 'a question the running workflow asked, in memory',
  'answerAsk.answer': "the person's answer",
  'probeModel.script': 'an uploaded script (its content; no file is named)',
  'importTrace.text': "an uploaded trace's content",
  'setApiKey.key': 'the key itself, kept by the key store',
  'addExercise.text': "an uploaded card's content",
  'checkExercise.id': 'a card of the session, in memory',
  'observeSession.id': "a session of the host's pool, in memory",
  'setSessionLabel.label': "a group's name",
  'setSessionLabel.id': "a session of the host's pool, in memory",
  'stopGroups.id': "a session of the host's pool, in memory",
  'putRobotFile.data': "an uploaded file's content (base64)",
};

/** A value of each kind that passes the contract's schema and names nothing that exists. */
const SENTINEL: Record<HostFieldKind, string> = {
  suite: 'sentinel-suite',
  model: 'openai-compatible:sentinel@http://127.0.0.1:9/v1',
  'run-id': 'sentinel.run-7',
  trace: 'sentinel-trace-7',
  'trace-image': 'sentinel-7.png',
  scene: '/sentinel/scene.json',
  'server-url': 'http://127.0.0.1:9/sentinel',
  'local-model': 'sentinel-model',
  'robot-upload': 'sentinel/robot.urdf',
};

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
        seen[m] = [...new Set(policy.asked)].sort();
        if (m === 'loadScene') await s.loadScene({ id: 'tabletop/fruits' });
      }
      expect(seen).toEqual(Object.fromEntries(METHOD_NAMES.map((m) => [m, [...METHOD_POLICY[m]].sort()])));
    } finally {
      await s.dispose();
    }
  }, 60_000);

  it('classifies every string field of every request schema: a host reference the policy parses, or plain text', () => {
    const unclassified: string[] = [];
    for (const m of METHOD_NAMES)
      for (const f of textFields(METHODS[m].request)) {
        const key = `${m}.${f.path}`;
        if (f.kind) expect(METHOD_POLICY[m], key).toContain(FIELD_CAPABILITY[f.kind]);
        else if (!PLAIN_FIELDS[key]) unclassified.push(key);
      }
    expect(unclassified, 'mark these with hostField(…) in the contract, or list them as plain text here').toEqual([]);
    // The list names only fields that exist.
    const all = new Set(METHOD_NAMES.flatMap((m) => textFields(METHODS[m].request).map((f) => `${m}.${f.path}`)));
    expect(Object.keys(PLAIN_FIELDS).filter((k) => !all.has(k))).toEqual([]);
  });

  it('parses each marked field of each method through the policy, with the value the request carried', async () => {
    const policy = new RecordingPolicy();
    const s = new AppService({ paced: false, policy, evalDir: mkdtempSync(join(tmpdir(), 'sb-policy-fields-')) });
    const missed: string[] = [];
    let marked = 0;
    try {
      await s.loadScene({ id: 'tabletop/fruits' });
      for (const m of METHOD_NAMES)
        for (const f of textFields(METHODS[m].request)) {
          if (!f.kind) continue;
          marked++;
          const request = { ...(SAMPLE[m] as Record<string, unknown>), [f.path]: SENTINEL[f.kind] };
          policy.parsed = [];
          try {
            await dispatch(s, m, parseRequest(m, request) as never);
          } catch {
            // the policy's refusal, or an unknown id: the parse is what counts
          }
          if (!policy.parsed.some(([c, v]) => c === FIELD_CAPABILITY[f.kind!] && v === SENTINEL[f.kind!])) missed.push(`${m}.${f.path}`);
          if (m === 'loadScene') await s.loadScene({ id: 'tabletop/fruits' });
        }
    } finally {
      await s.dispose();
    }
    expect(marked).toBeGreaterThanOrEqual(16);
    expect(missed).toEqual([]);
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
