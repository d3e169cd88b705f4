// A scripted AppApi for component tests: every method answers from `overrides`
// or a small default world, and records its calls.
import {
  type AppApi,
  type EventListener,
  METHOD_NAMES,
  type MethodName,
  type PoseListener,
  type Request,
  type Response,
} from '../../../contract/api';
import type { SceneMeta, ToolInfo } from '../../../contract/schemas';

export const TOOLS: ToolInfo[] = [
  {
    name: 'get_objects',
    description: 'Returns the names of the objects present.',
    category: 'information',
    parameters: { type: 'object', properties: {}, additionalProperties: false },
    card: {
      capability: 'list',
      inputs: 'none',
      outputs: 'names',
      whenToUse: 'first',
      constraints: null,
      mode: 'on-demand',
      dimension: 'perception',
      requires: [],
      tags: [],
    },
  },
  {
    name: 'pick',
    description: 'Picks up an object.',
    category: 'action',
    parameters: {
      type: 'object',
      properties: {
        object_name: { type: 'string', minLength: 1, description: 'what to pick' },
        speed: { type: 'number' },
        side: { type: 'string', enum: ['left', 'right'] },
        to: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }, { type: 'number' }] },
      },
      required: ['object_name'],
      additionalProperties: false,
    },
    card: {
      capability: 'pick',
      inputs: 'object_name',
      outputs: 'outcome',
      whenToUse: 'to hold',
      constraints: 'one at a time',
      mode: 'on-demand',
      dimension: 'execution',
      requires: ['arm'],
      tags: [],
    },
  },
];

export const META: SceneMeta = {
  id: 'tabletop/fruits',
  title: 'Tabletop: fruits',
  description: 'fruits',
  generation: 1,
  environment: 'workbench',
  floor: { size: [4, 4], color: '#a7a39b', kind: 'floor' },
  objects: [
    {
      id: 'lemon_1',
      name: 'lemon',
      type: 'lemon',
      category: 'fruit',
      color: '#f0d000',
      fixed: false,
      hidden: false,
      size: [0.06, 0.05, 0.05],
      body: { stream: 0, position: [0.3, 0.8, 0], rotation: [0, 0, 0, 1], parts: [], colliders: [] },
      door: null,
      states: {},
    },
  ],
  robot: {
    id: 'robot',
    title: 'Arm',
    kind: 'fixed_arm',
    description: '',
    baseColor: '#333333',
    armColor: '#444444',
    baseSize: [0.2, 0.1, 0.2],
    wheelRadius: null,
    bodies: [],
    camera: { mount: 'head', position: [0, 1, 0], pitchDeg: -30, fovDeg: 90, range: 2 },
    jointNames: [],
    drawNotes: [],
  },
  locations: [],
  people: [
    {
      id: 'anna',
      name: 'Anna',
      height: 1.7,
      seated: false,
      body: { stream: null, position: [1, 0, 1], rotation: [0, 0, 0, 1], parts: [], colliders: [] },
    },
  ],
  stream: ['lemon_1'],
  toolSet: 'alrm',
  notes: [],
};

type Handlers = { [M in MethodName]?: (req: Request<M>) => Promise<Response<M>> | Response<M> };

export interface FakeApi extends AppApi {
  calls: Array<{ method: MethodName; request: unknown }>;
  emitEvent: EventListener;
  emitPoses: PoseListener;
}

export function fakeApi(overrides: Handlers = {}): FakeApi {
  const calls: FakeApi['calls'] = [];
  const eventListeners = new Set<EventListener>();
  const poseListeners = new Set<PoseListener>();
  const defaults: Handlers = {
    listScenes: () => [
      {
        id: 'tabletop/fruits',
        title: 'Tabletop: fruits',
        description: '',
        robot: 'arm',
        robotKind: 'fixed_arm',
        toolSet: 'alrm',
        toolSets: ['alrm'],
        objects: 1,
        paper: null,
      },
    ],
    currentScene: () => META,
    loadScene: () => META,
    resetScene: () => ({ ...META, generation: META.generation + 1 }),
    listToolSets: () => [
      { id: 'alrm', title: 'ALRM', paper: '002', description: '', available: true, reason: null, isDefault: true },
      { id: 'farm', title: 'Farm', paper: '003', description: '', available: false, reason: 'no rover', isDefault: false },
    ],
    listTools: () => TOOLS,
    callTool: (r) => ({
      callId: 1,
      tool: r.name,
      set: 'alrm',
      ok: true,
      content: `called ${r.name}`,
      data: undefined,
      elapsedMs: 5,
      simSeconds: 0.5,
    }),
    injectEvent: (r) => ({ ok: true, message: `injected ${r.type}` }),
    getBattery: () => ({ percent: 80, level: 'okay', charging: false, docked: false }),
    getRobotSafety: () => null,
    getSnapshot: () => ({
      sceneId: META.id,
      time: 1,
      facts: ['on(lemon_1, table_1)'],
      battery: { percent: 80, level: 'okay', charging: false, docked: false },
      estop: false,
      holding: null,
      at: null,
      posture: 'home',
      busy: false,
      events: [],
    }),
    setSpeed: (r) => ({ factor: r.factor }),
    cancelToolCall: () => ({ ok: false, message: 'none' }),
    listWorkflows: () => [
      { id: 'rtw/basic', title: 'Basic', paper: '000', description: 'flat tools', systemPrompt: 'You control a robot arm.' },
    ],
    detectModels: () => ({ ollama: { baseURL: 'http://127.0.0.1:11434/v1', reachable: false, models: [] } }),
    hasApiKey: () => ({ stored: false }),
    getSimState: () => ({ paused: false, time: 1, speed: 1, dt: 1 / 240 }),
    getWorldSettings: () => ({ seed: 1, noise: { distanceSigma: 0, detectionDropout: 0, skillFailureRate: 0 } }),
    listRuns: () => [],
    listExercises: () => [],
    setViewVisible: () => ({ ok: true, message: 'full rate' }),
  };
  const api: Record<string, unknown> = {};
  const names: readonly MethodName[] = METHOD_NAMES;
  for (const m of names) {
    api[m] = async (request: unknown) => {
      calls.push({ method: m, request });
      const h = (overrides[m] ?? defaults[m]) as ((r: unknown) => unknown) | undefined;
      if (!h) throw new Error(`The agent runtime is not connected yet (${m})`);
      return h(request);
    };
  }
  return {
    ...(api as unknown as AppApi),
    onEvent: (l) => {
      eventListeners.add(l);
      return () => eventListeners.delete(l);
    },
    onPoses: (l) => {
      poseListeners.add(l);
      return () => poseListeners.delete(l);
    },
    calls,
    emitEvent: (e) => eventListeners.forEach((l) => l(e)),
    emitPoses: (f) => poseListeners.forEach((l) => l(f)),
  };
}
