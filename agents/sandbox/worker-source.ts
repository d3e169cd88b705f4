// The sandbox worker's program, as a string the host starts with
// `new Worker(WORKER_SOURCE, { eval: true })`. A string rather than a file: the
// same code then runs from the TypeScript sources (vitest, tsx), from an esbuild
// or electron-vite bundle (where no file sits beside this module) and inside the
// simulation worker (a nested worker). It is plain CommonJS (eval workers are
// scripts) and loads QuickJS from the paths the host resolved (workerData).
//
// One QuickJS module per worker (~20 ms to instantiate); a fresh runtime and
// context per program, so nothing a program leaves behind reaches the next.
// API calls are synchronous for the program: the worker posts the call, then
// blocks in Atomics.wait until the host has answered on `replies` and bumped
// `signal` (receiveMessageOnPort reads the answer without an event loop turn).
//
// Keep this free of backticks and dollar-brace: it lives in a template literal.
export const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData, receiveMessageOnPort } = require('node:worker_threads');

const replies = workerData.replies;
const signal = new Int32Array(workerData.signal);
let Q;

function post(m) {
  parentPort.postMessage(m);
}

// What a thrown guest value looks like on the host: name, message, stack (for the line).
function describeThrown(ctx, handle) {
  let v;
  try {
    v = ctx.dump(handle);
  } catch (e) {
    return { name: 'Error', message: 'an error that could not be read (' + String(e && e.message) + ')', stack: '' };
  }
  if (v && typeof v === 'object' && typeof v.message === 'string') {
    return { name: String(v.name || 'Error'), message: v.message, stack: String(v.stack || '') };
  }
  return { name: 'Thrown', message: show(v), stack: '' };
}

function show(v) {
  if (typeof v === 'string') return v;
  if (v === undefined) return 'undefined';
  if (v && typeof v === 'object' && typeof v.name === 'string' && typeof v.message === 'string' && 'stack' in v) {
    return v.name + ': ' + v.message;
  }
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s;
  } catch (e) {
    return String(v);
  }
}

function runProgram(msg) {
  const run = msg.run;
  const limits = msg.limits;
  const deadline = Date.now() + limits.timeMs;
  // Set once the program must end whatever it catches; the interrupt handler then stops it.
  let fatal;
  let reach;
  // Where the program was when it had to stop (its line, even if it then caught the error).
  let fatalStack = '';
  let calls = 0;
  let lastFlush = Date.now();
  let pending = '';
  let dropped = 0;
  let retire = false;

  const flush = () => {
    if (pending || dropped) post({ type: 'output', run, text: pending, dropped });
    pending = '';
    dropped = 0;
    lastFlush = Date.now();
  };
  const write = (text) => {
    pending += text;
    const over = pending.length - limits.maxOutputChars;
    if (over > 0) {
      dropped += over;
      pending = pending.slice(over);
    }
  };

  const rt = Q.newRuntime();
  const ctx = rt.newContext();
  const handles = [];
  let outcome;
  try {
    rt.setMemoryLimit(limits.memoryBytes);
    rt.setMaxStackSize(limits.stackBytes);
    rt.setInterruptHandler(() => {
      const now = Date.now();
      if (now > deadline && fatal === undefined) fatal = 'timeout';
      if (now - lastFlush > 100) flush();
      return fatal !== undefined;
    });
    rt.setModuleLoader((name) => {
      fatal = fatal || 'host_access';
      reach = reach || 'import("' + name + '")';
      return { error: new Error('modules cannot be imported in the sandbox (import of "' + name + '")') };
    });

    const global = ctx.global;
    const print = ctx.newFunction('print', (...args) => {
      write(args.map((h) => show(ctx.dump(h))).join(' ') + '\n');
    });
    handles.push(print);
    ctx.setProp(global, 'print', print);
    const consoleObj = ctx.newObject();
    handles.push(consoleObj);
    for (const level of ['log', 'info', 'warn', 'error', 'debug']) ctx.setProp(consoleObj, level, print);
    ctx.setProp(global, 'console', consoleObj);

    // Reaching for the host ends the program even when it catches the error.
    for (const name of msg.blocked) {
      try {
        ctx.defineProp(global, name, {
          configurable: false,
          enumerable: false,
          get: () => {
            reach = reach || name;
            throw stop('host_access', 'ReferenceError', name + ' is not available in the sandbox');
          },
        });
      } catch (e) {
        // already a non-configurable global of QuickJS: leave it
      }
    }

    const json = ctx.getProp(global, 'JSON');
    const jsonParse = ctx.getProp(json, 'parse');
    json.dispose();
    handles.push(jsonParse);
    const toGuest = (value) => {
      if (value === undefined) return ctx.undefined;
      const text = ctx.newString(JSON.stringify(value));
      try {
        return ctx.unwrapResult(ctx.callFunction(jsonParse, ctx.undefined, text));
      } finally {
        text.dispose();
      }
    };

    let seq = 0;
    for (const name of msg.names) {
      const fn = ctx.newFunction(name, (...argHandles) => {
        if (fatal !== undefined) throw stop(fatal);
        if (calls >= limits.maxCalls) throw stop('api_limit');
        calls++;
        const args = argHandles.map((h) => ctx.dump(h));
        flush();
        const id = ++seq;
        post({ type: 'call', run, seq: id, name, args });
        for (;;) {
          const seen = Atomics.load(signal, 0);
          let m;
          while ((m = receiveMessageOnPort(replies)) !== undefined) {
            const r = m.message;
            if (r.run !== run || r.seq !== id) continue; // an answer to a call that timed out earlier
            if (r.ok) return toGuest(r.value);
            const e = new Error(r.error);
            e.name = 'ApiError';
            throw e;
          }
          const left = deadline - Date.now();
          if (left <= 0) throw stop('timeout');
          Atomics.wait(signal, 0, seen, left);
        }
      });
      handles.push(fn);
      ctx.setProp(global, name, fn);
    }

    // An async body: 'await' works, 'return' gives the value, and line numbers stay those of the program.
    const evaluated = ctx.evalCode('(async () => {' + msg.code + '\n})()', 'program.js', { type: 'global' });
    outcome = settle(ctx, rt, evaluated);
  } catch (e) {
    // QuickJS itself failed (e.g. the native stack overflowed): do not trust this worker again.
    retire = true;
    const overflow = e instanceof RangeError;
    outcome = { ok: false, error: { name: overflow ? 'RangeError' : 'SandboxError', message: String(e && e.message), stack: '' } };
  }
  flush();
  // A runtime QuickJS failed inside is left as is (freeing it would trip QuickJS's own assertions); the worker retires.
  if (!retire) {
    try {
      for (const h of handles) if (h.alive) h.dispose();
      ctx.dispose();
      rt.dispose();
    } catch (e) {
      retire = true;
    }
  }
  if (fatal !== undefined && (outcome.ok || !/program\.js:/.test(outcome.error.stack))) {
    outcome = { ok: false, error: { name: 'Stopped', message: fatal, stack: fatalStack } };
  }
  post({ type: 'done', run, ...outcome, ...(fatal !== undefined ? { fatal } : {}), ...(reach ? { reach } : {}), retire });

  // Marks the program as having to end, and returns the guest error to throw at the point it happened.
  function stop(kind, name, message) {
    fatal = fatal || kind;
    const handle = ctx.newError({ name: name || 'InternalError', message: message || (kind === 'api_limit' ? 'API call limit reached' : 'time limit reached') });
    if (!fatalStack) {
      try {
        fatalStack = String(ctx.getProp(handle, 'stack').consume((h) => ctx.dump(h)) || '');
      } catch (e) {
        fatalStack = '';
      }
    }
    return handle;
  }
}

// Runs the program's promise to the end: API calls are synchronous, so once no
// job is left, a still-pending promise can never settle.
function settle(ctx, rt, evaluated) {
  // Read errors without limits: the program may have ended by exhausting them.
  const release = () => {
    rt.removeInterruptHandler();
    rt.setMemoryLimit(-1);
  };
  if (evaluated.error) {
    release();
    const error = describeThrown(ctx, evaluated.error);
    evaluated.error.dispose();
    return { ok: false, error };
  }
  const promise = evaluated.value;
  try {
    const jobs = rt.executePendingJobs(-1);
    if (jobs.error) {
      release();
      const error = describeThrown(ctx, jobs.error);
      jobs.error.dispose();
      return { ok: false, error };
    }
    const state = ctx.getPromiseState(promise);
    release();
    if (state.type === 'fulfilled') {
      const value = ctx.dump(state.value);
      state.value.dispose();
      return { ok: true, value };
    }
    if (state.type === 'rejected') {
      const error = describeThrown(ctx, state.error);
      state.error.dispose();
      return { ok: false, error };
    }
    return { ok: false, error: { name: 'Pending', message: 'never settles', stack: '' } };
  } finally {
    promise.dispose();
  }
}

(async () => {
  try {
    const core = require(workerData.core);
    const variant = require(workerData.variant);
    Q = await core.newQuickJSWASMModuleFromVariant(variant.default || variant);
  } catch (e) {
    post({ type: 'boot_failed', message: String(e && e.message) });
    return;
  }
  parentPort.on('message', (msg) => {
    if (msg && msg.type === 'run') runProgram(msg);
  });
  post({ type: 'ready' });
})();
`;
