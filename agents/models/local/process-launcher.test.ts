// The model process launcher seam, in plain Node with a fake launcher (the Electron
// binary does not exist here): the provider starts its process only through the
// injected launcher and speaks protocol.ts over it; worker threads reach an injected
// launcher through the relay; runs of one file and settings share one process,
// which ends when idle and at shutdown.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeTinyGguf } from '../../../test/support/tiny-gguf';
import { createLocalModel } from './local-model';
import { localModelFromSpec } from './local-spec';
import { DEFAULT_IDLE_MS, loadedLocalModels, setLocalModelIdleMs, unloadLocalModels } from './model-cache';
import { modelProcessLauncherInjected, setModelProcessLauncher, type ModelProcess, type ModelProcessLauncher } from './process-launcher';
import { relayLauncher, serveModelProcesses } from './process-relay';
import type { ToProcess } from './protocol';

interface FakeProc {
  script: string;
  received: ToProcess[];
  killed: boolean;
  exited: boolean;
}

/** A launcher whose "process" answers in this thread like llama-process.mjs does: loads, then replies a tool call. */
function fakeLauncher(): { launch: ModelProcessLauncher; procs: FakeProc[] } {
  const procs: FakeProc[] = [];
  let pid = 9000;
  const launch: ModelProcessLauncher = (script) => {
    const me: FakeProc = { script, received: [], killed: false, exited: false };
    procs.push(me);
    const myPid = ++pid;
    const onMessage: Array<(raw: unknown) => void> = [];
    const onExit: Array<(why: string) => void> = [];
    const reply = (m: unknown): void => void setImmediate(() => onMessage.forEach((l) => l(m)));
    const exit = (why: string): void => {
      if (me.exited) return;
      me.exited = true;
      setImmediate(() => onExit.splice(0).forEach((l) => l(why)));
    };
    const proc: ModelProcess = {
      get pid() {
        return me.exited ? undefined : myPid;
      },
      send(m) {
        me.received.push(m);
        if (m.type === 'load') reply({ type: 'loaded', trainContextSize: 4096, chatWrapper: 'Fake', nativeTools: false, loadMs: 1 });
        else if (m.type === 'generate')
          reply({
            type: 'done',
            id: m.id,
            text: JSON.stringify({ tool_calls: [{ name: 'look', arguments: {} }] }),
            reasoning: '',
            functionCalls: [],
            stopReason: 'eogToken',
            promptTokens: 12,
            completionTokens: 9,
            timeToFirstTokenMs: 2,
            durationMs: 5,
            contextSize: 2048,
          });
        else if (m.type === 'dispose') exit('exit 0');
      },
      onMessage: (l) => void onMessage.push(l),
      onExit: (l) => void onExit.push(l),
      onStderr: () => undefined,
      kill() {
        me.killed = true;
        exit('SIGKILL');
      },
      hold: () => undefined,
    };
    return proc;
  };
  return { launch, procs };
}

const tools = [
  {
    type: 'function' as const,
    function: { name: 'look', description: 'Describe the scene.', parameters: { type: 'object', properties: {} } },
  },
];
const ask = { messages: [{ role: 'user' as const, content: 'What do you see?' }], tools, toolChoice: 'required' as const };

let dir: string;
let file: string;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'sb-launcher-'));
  file = writeTinyGguf(path.join(dir, 'tiny.gguf'));
});

afterEach(async () => {
  await unloadLocalModels();
  setLocalModelIdleMs(DEFAULT_IDLE_MS);
  setModelProcessLauncher();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the model process launcher seam', () => {
  it('starts the model process only through the injected launcher, with the protocol over it', async () => {
    const fake = fakeLauncher();
    setModelProcessLauncher(fake.launch);
    expect(modelProcessLauncherInjected()).toBe(true);
    const m = createLocalModel({ id: 'local:tiny', file, threads: 2, maxContext: 4096 });
    const c = await m.complete(ask);
    expect(c.toolCalls.map((t) => t.function.name)).toEqual(['look']);
    expect(c.usage).toMatchObject({ promptTokens: 12, completionTokens: 9 });
    expect(fake.procs).toHaveLength(1);
    const proc = fake.procs[0]!;
    expect(proc.script).toMatch(/llama-process\.mjs$/);
    expect(proc.received.map((r) => r.type)).toEqual(['load', 'generate']);
    expect(proc.received[0]).toEqual({ type: 'load', file, gpu: expect.anything() as unknown, maxContext: 4096, threads: 2 });
    await m.dispose();
    expect(proc.received.at(-1)).toEqual({ type: 'dispose' });
    expect(proc.exited).toBe(true);
    setModelProcessLauncher();
    expect(modelProcessLauncherInjected()).toBe(false);
  });

  it('reaches a launcher on another thread through the relay, and its processes end when the port closes', async () => {
    const fake = fakeLauncher();
    const { port1, port2 } = new MessageChannel();
    serveModelProcesses(port1, fake.launch);
    setModelProcessLauncher(relayLauncher(port2));
    const m = createLocalModel({ id: 'local:tiny', file });
    const c = await m.complete(ask);
    expect(c.toolCalls.map((t) => t.function.name)).toEqual(['look']);
    expect(m.pid).toBe(9001);
    expect(fake.procs.map((p) => p.received.map((r) => r.type))).toEqual([['load', 'generate']]);
    port2.close();
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.procs[0]!.killed).toBe(true);
  });
});

describe('loaded models shared by runs', () => {
  it('runs of one file and settings reuse one process; other settings get their own', async () => {
    const fake = fakeLauncher();
    setModelProcessLauncher(fake.launch);
    const env = { SKILLBRIDGE_LOCAL_THREADS: '2' };
    for (let run = 0; run < 3; run++) await localModelFromSpec('local:tiny', file, 'any', env).complete(ask);
    expect(fake.procs).toHaveLength(1);
    expect(fake.procs[0]!.received.filter((r) => r.type === 'load')).toHaveLength(1);
    expect(fake.procs[0]!.received.filter((r) => r.type === 'generate')).toHaveLength(3);
    // Two runs at once on one model: one process, the requests queue there.
    await Promise.all([1, 2].map(() => localModelFromSpec('local:tiny', file, 'any', env).complete(ask)));
    expect(fake.procs).toHaveLength(1);
    await localModelFromSpec('local:tiny', file, 'any', { ...env, SKILLBRIDGE_LOCAL_CONTEXT: '2048' }).complete(ask);
    expect(fake.procs).toHaveLength(2);
    expect(loadedLocalModels()).toBe(2);
    await unloadLocalModels();
    expect(fake.procs.every((p) => p.exited)).toBe(true);
    expect(loadedLocalModels()).toBe(0);
  });

  it('ends an idle model process, and the next run loads it again', async () => {
    const fake = fakeLauncher();
    setModelProcessLauncher(fake.launch);
    setLocalModelIdleMs(100);
    await localModelFromSpec('local:tiny', file, 'any', {}).complete(ask);
    await new Promise((r) => setTimeout(r, 300));
    expect(fake.procs[0]!.exited).toBe(true);
    expect(loadedLocalModels()).toBe(0);
    await localModelFromSpec('local:tiny', file, 'any', {}).complete(ask);
    expect(fake.procs).toHaveLength(2);
  });
});
