import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BLOCKED_GLOBALS } from './explain';
import { Sandbox, SandboxConfigError } from './sandbox';
import type { RunOptions, SandboxApi, SandboxCall, SandboxResult } from './types';

const sandbox = new Sandbox();
afterAll(() => sandbox.dispose());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fake robot API: records what it was asked, answers like a tool. */
function fakeApi(log: string[] = []): SandboxApi {
  return {
    get_objects: async () => {
      log.push('get_objects');
      return ['lemon_1', 'bowl_1'];
    },
    pick: async (args) => {
      await sleep(20);
      log.push(`pick ${JSON.stringify(args)}`);
      return `picked ${Array.isArray(args) ? String(args[0]) : String(args['object_name'])}`;
    },
    place: async (args) => {
      log.push(`place ${JSON.stringify(args)}`);
      return { ok: true, at: args };
    },
    fail: async () => {
      throw new Error('no object called plum');
    },
  };
}

const run = (code: string, opts: Partial<RunOptions> = {}) => sandbox.run(code, { api: fakeApi(), ...opts });
const failure = (r: SandboxResult) => {
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.value)}`);
  return r.error;
};

// After every failure the next program must run normally (the worker reused, or replaced when killed).
afterEach(async () => {
  const r = await run('return pick("probe")');
  expect(r).toMatchObject({ ok: true, value: 'picked probe' });
});

describe('API calls', () => {
  it('runs calls synchronously, in order, with their results; await works too', async () => {
    const log: string[] = [];
    const seen: SandboxCall[] = [];
    const code = [
      'const objects = get_objects();',
      'const a = pick(objects[0]);',
      'const b = await pick({ object_name: "bowl_1" });',
      'place("bowl_1", { x: 1 });',
      'return { objects, a, b };',
    ].join('\n');
    const r = await sandbox.run(code, { api: fakeApi(log), onCall: (c) => seen.push(c) });
    expect(r).toMatchObject({ ok: true, value: { objects: ['lemon_1', 'bowl_1'], a: 'picked lemon_1', b: 'picked bowl_1' } });
    expect(log).toEqual(['get_objects', 'pick ["lemon_1"]', 'pick {"object_name":"bowl_1"}', 'place ["bowl_1",{"x":1}]']);
    expect(r.calls.map((c) => [c.seq, c.name, c.args])).toEqual([
      [1, 'get_objects', []],
      [2, 'pick', ['lemon_1']],
      [3, 'pick', { object_name: 'bowl_1' }],
      [4, 'place', ['bowl_1', { x: 1 }]],
    ]);
    expect(r.calls[3]!.outcome).toEqual({ ok: true, value: { ok: true, at: ['bowl_1', { x: 1 }] } });
    // Each call is reported as it ends, with when it started and how long it took (pick sleeps 20 ms).
    expect(seen).toEqual(r.calls);
    expect(r.calls[1]!.durationMs).toBeGreaterThanOrEqual(15);
    expect(r.calls[1]!.startedAt).toBeGreaterThanOrEqual(r.calls[0]!.startedAt);
  });

  it('gives a failed call to the program as an ApiError it can catch', async () => {
    const r = await run('try { fail("plum") } catch (e) { return [e.name, e.message] }');
    expect(r).toMatchObject({ ok: true, value: ['ApiError', 'no object called plum'] });
    expect(r.calls[0]!.outcome).toEqual({ ok: false, error: 'no object called plum' });
  });

  it('ends the program at an uncaught failed call, naming the call and its line', async () => {
    const r = await run('pick("lemon_1")\nfail("plum")\npick("never")');
    expect(failure(r)).toEqual({
      kind: 'api_error',
      line: 2,
      message: 'fail("plum") failed at line 2: no object called plum. The program did not catch the error, so it stopped there.',
    });
    expect(r.calls.map((c) => c.name)).toEqual(['pick', 'fail']);
  });

  it('fails a call whose result is not plain data, without breaking the run', async () => {
    const api: SandboxApi = { odd: async () => ({ n: 1n }) };
    const r = await sandbox.run('try { odd() } catch (e) { return e.message }', { api });
    expect(r).toMatchObject({ ok: true, value: expect.stringContaining('odd returned a value the program cannot receive') });
  });

  it('stops the program after the API call limit, even if it catches the error', async () => {
    const r = await run('for (let i = 0; ; i++) { try { pick(String(i)) } catch (e) {} }', { limits: { maxCalls: 3 } });
    expect(failure(r)).toMatchObject({ kind: 'api_limit', line: 1, message: expect.stringContaining('more than 3 API calls') });
    expect(r.calls).toHaveLength(3);
  });

  it('keeps going when an onCall listener throws', async () => {
    const r = await run('return pick("a") + "," + pick("b")', {
      onCall: () => {
        throw new Error('trace broke');
      },
    });
    expect(r).toMatchObject({ ok: true, value: 'picked a,picked b' });
  });
});

describe('value and output', () => {
  it('returns the value of a top-level return, and captures print and console.log', async () => {
    const chunks: string[] = [];
    const r = await run('print("hello", 42, { a: [1] });\nconsole.log("via console");\nprint(new Error("shown"));\nreturn [1, "two"]', {
      onOutput: (t) => chunks.push(t),
    });
    expect(r).toEqual({ ok: true, value: [1, 'two'], output: 'hello 42 {"a":[1]}\nvia console\nError: shown\n', calls: [] });
    expect(chunks.join('')).toBe(r.output);
  });

  it('keeps only the tail of a long output and says how much was dropped', async () => {
    const r = await run('for (let i = 0; i < 1000; i++) print("line " + i)', { limits: { maxOutputChars: 100 } });
    expect(r.ok).toBe(true);
    const [note, ...rest] = r.output.split('\n');
    expect(note).toMatch(/^\[… \d+ earlier characters of output dropped\]$/);
    expect(rest.join('\n').length).toBeLessThanOrEqual(100);
    expect(r.output.endsWith('line 999\n')).toBe(true);
  });

  it('starts each program in a fresh context', async () => {
    await run('globalThis.leftover = 1; var alsoLeft = 2');
    const r = await run('return [typeof leftover, typeof alsoLeft]');
    expect(r).toMatchObject({ ok: true, value: ['undefined', 'undefined'] });
  });
});

describe('programs that fail', () => {
  it('reports a thrown error with its line', async () => {
    const r = await run('print("before")\n\nthrow new TypeError("boom")');
    expect(failure(r)).toEqual({ kind: 'exception', line: 3, message: 'Uncaught TypeError at line 3: boom' });
    expect(r.output).toBe('before\n');
  });

  it('reports a syntax error with its line and says to write plain JavaScript', async () => {
    const r = await run('const a = 1\nconst b: number = 2');
    expect(failure(r)).toMatchObject({
      kind: 'syntax',
      line: 2,
      message: expect.stringMatching(/^Syntax error at line 2: .*plain JavaScript/),
    });
  });

  it('names the API when the program uses a function that does not exist', async () => {
    const r = await run('pick("lemon_1")\nmove_arm("up")');
    expect(failure(r)).toMatchObject({
      kind: 'exception',
      line: 2,
      message: expect.stringContaining('It may use only get_objects(), pick()'),
    });
  });

  it('stops an endless loop at the deadline, even one that catches errors', async () => {
    const r = await run('let n = 0\nfor (;;) { try { while (true) n++ } catch (e) {} }', { limits: { timeMs: 300 } });
    expect(failure(r)).toEqual({
      kind: 'timeout',
      message:
        'The program was stopped: it ran longer than its time limit of 0.3 s. A program must finish: no endless loops, no waiting for something that does not happen.',
    });
  });

  it('stops unbounded allocation at the memory limit', async () => {
    const r = await run('const a = []\nfor (let s = "x"; ; s += "0123456789") a.push(s + a.length)', { limits: { memoryBytes: 4 << 20 } });
    expect(failure(r)).toMatchObject({ kind: 'memory', message: expect.stringContaining('ran out of memory (limit 4 MiB)') });
  });

  it('stops deep recursion at the stack limit', async () => {
    const r = await run('function down(n) { return down(n + 1) + 1 }\nreturn down(0)');
    expect(failure(r)).toMatchObject({ kind: 'stack', line: 1, message: expect.stringContaining('recursion went too deep') });
  });

  it('says so when the program waits for a promise nothing can settle', async () => {
    const r = await run('await new Promise(() => {})');
    expect(failure(r)).toMatchObject({ kind: 'exception', message: expect.stringContaining('never settles') });
  });

  it('kills the worker when one native operation ignores the deadline (watchdog)', async () => {
    // Array.prototype.join of 1e8 holes runs in C without checking QuickJS's interrupt (quickjs-emscripten #219).
    const r = await run('print("started")\nreturn new Array(1e8).join("x").length', { limits: { timeMs: 200, memoryBytes: 512 << 20 } });
    expect(failure(r)).toMatchObject({ kind: 'timeout', message: expect.stringContaining('could not be interrupted') });
  });
});

describe('reaching for the host', () => {
  const reaches: [string, string, string][] = [
    ['require', 'const fs = require("fs")', 'require'],
    ['process', 'process.exit(1)', 'process'],
    ['fetch', 'fetch("http://example.com")', 'fetch'],
    ['dynamic import', 'const fs = await import("fs")', 'import("fs")'],
    ['static import', 'import fs from "fs"', 'import'],
    ['constructor trick', 'this.constructor.constructor("return process")()', 'process'],
    ['Function built by eval', 'eval("(function () { return require })")()("fs")', 'require'],
    ['new Function', 'new Function("return globalThis.process")().env', 'process'],
    ['a caught attempt', 'try { require("child_process") } catch (e) {}\nreturn "escaped"', 'require'],
    ['a timer', 'setTimeout(() => pick("x"), 10)', 'setTimeout'],
  ];
  it.each(reaches)('stops %s and lists what the program may use', async (_what, code, reach) => {
    const r = await run(code);
    const e = failure(r);
    expect(e.kind).toBe('host_access');
    expect(e.message).toContain(`it used ${reach}, which is not available`);
    expect(e.message).toContain('It may use only get_objects(), pick(), place(), fail(), print() (or console.log)');
    expect(r.calls).toEqual([]);
  });

  it('names the line of the attempt', async () => {
    const r = await run('const a = 1\nconst b = 2\nrequire("fs")');
    expect(failure(r)).toMatchObject({
      kind: 'host_access',
      line: 3,
      message: expect.stringMatching(/^The program was stopped at line 3: it used require/),
    });
  });

  it('has no host objects: only the API, print and console are added to standard JavaScript', async () => {
    const r = await run('return Object.getOwnPropertyNames(globalThis)');
    const standard = new Set(
      (
        'AggregateError Array ArrayBuffer BigInt BigInt64Array BigUint64Array Boolean DOMException DataView Date Error EvalError ' +
        'FinalizationRegistry Float16Array Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array InternalError ' +
        'Iterator JSON Map Math NaN Number Object Promise Proxy RangeError ReferenceError Reflect RegExp Set SharedArrayBuffer String ' +
        'Symbol SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef WeakSet ' +
        'decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval globalThis isFinite isNaN parseFloat parseInt ' +
        'performance queueMicrotask undefined unescape'
      ).split(' '),
    );
    // The host names present are traps that end the program when read (BLOCKED_GLOBALS).
    const added = (r.ok ? (r.value as string[]) : []).filter((n) => !standard.has(n) && !BLOCKED_GLOBALS.includes(n)).sort();
    expect(added).toEqual(['console', 'fail', 'get_objects', 'pick', 'place', 'print']);
  });
});

describe('Stop', () => {
  it('stops a pure loop at once', async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const r = await run('print("looping")\nwhile (true) {}', { signal: stop.signal });
    expect(failure(r)).toEqual({ kind: 'stopped', message: 'The program was stopped by the user before it finished.' });
  });

  it('stops during a slow API call and aborts that call’s signal', async () => {
    const stop = new AbortController();
    let callSignal: AbortSignal | undefined;
    const api: SandboxApi = {
      move: (_args, signal) => {
        callSignal = signal;
        setTimeout(() => stop.abort(), 50);
        return new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
      },
    };
    const r = await sandbox.run('move("far")\nprint("never")', { api, signal: stop.signal });
    expect(failure(r).kind).toBe('stopped');
    expect(callSignal?.aborted).toBe(true);
    expect(r.calls).toMatchObject([{ name: 'move', args: ['far'], outcome: { ok: false, error: 'stopped by the user' } }]);
    expect(r.output).toBe('');
  });

  it('does not start a program when already stopped', async () => {
    const stop = new AbortController();
    stop.abort();
    const log: string[] = [];
    const r = await sandbox.run('get_objects()', { api: fakeApi(log), signal: stop.signal });
    expect(failure(r).kind).toBe('stopped');
    expect(log).toEqual([]);
  });

  it('answers at once when stopped while waiting for an earlier program, and never runs it', async () => {
    const log: string[] = [];
    const first = sandbox.run('pick("first")', { api: fakeApi(log) });
    const stop = new AbortController();
    const second = sandbox.run('get_objects()', { api: fakeApi(log), signal: stop.signal });
    stop.abort();
    expect(failure(await second).kind).toBe('stopped');
    expect(log).toEqual([]);
    expect((await first).ok).toBe(true);
    expect(log).toEqual(['pick ["first"]']);
  });

  it('times out during a slow API call, aborts it, and never hands its late answer to the next program', async () => {
    let callSignal: AbortSignal | undefined;
    const api: SandboxApi = {
      slow: async (_args, signal) => {
        callSignal = signal;
        await sleep(400); // ignores the signal on purpose
        return 'stale';
      },
    };
    const r = await sandbox.run('return slow()', { api, limits: { timeMs: 150 } });
    expect(failure(r).kind).toBe('timeout');
    expect(callSignal?.aborted).toBe(true);
    expect(r.calls).toMatchObject([{ name: 'slow', outcome: { ok: false, error: expect.stringContaining('time limit') } }]);
    // The stale answer arrives while this program runs; it must get its own.
    const next = await sandbox.run('const a = slow(); return a', {
      api: {
        slow: async () => {
          await sleep(500);
          return 'fresh';
        },
      },
    });
    expect(next).toMatchObject({ ok: true, value: 'fresh' });
  });
});

describe('configuration', () => {
  it('rejects bad limits with one line naming the field', async () => {
    await expect(run('1', { limits: { timeMs: -5 } })).rejects.toThrow(SandboxConfigError);
    await expect(run('1', { limits: { stackBytes: 64 << 20 } })).rejects.toThrow(/^sandbox limits\.stackBytes: /);
  });

  it('rejects API names a program could not call or that would hide the sandbox’s own', async () => {
    await expect(sandbox.run('1', { api: { 'pick-up': async () => 1 } })).rejects.toThrow(/"pick-up" cannot be a function name/);
    await expect(sandbox.run('1', { api: { print: async () => 1 } })).rejects.toThrow(SandboxConfigError);
    await expect(sandbox.run('1', { api: { require: async () => 1 } })).rejects.toThrow(SandboxConfigError);
  });
});
