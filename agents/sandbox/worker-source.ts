// The sandbox worker's program, as a string the host starts with
// `new Worker(WORKER_SOURCE, { eval: true })`. A string rather than a file: the
// same code then runs from the TypeScript sources (vitest, tsx), from an esbuild
// or electron-vite bundle (where no file sits beside this module) and inside the
// simulation worker (a nested worker). It is plain CommonJS (eval workers are
// scripts) and loads QuickJS from the paths the host resolved (workerData).
//
// One QuickJS module per worker (~20 ms to instantiate); a fresh runtime and
// context per program, so nothing a program leaves behind reaches the next.
//
// The memory limit is the module's WebAssembly memory, not QuickJS's own
// accounting: this build cannot ask its allocator a block's size, so QuickJS
// counts every allocation as 8 bytes and its limit refuses only a single block
// over the limit (a thousand 1 MB typed arrays or strings passed;
// quickjs-emscripten#271). Every allocation lives in the linear memory, so the module
// gets a memory whose maximum is the build's own start (its code, stack and
// first heap) plus the limit; an allocation past it fails inside QuickJS as
// "out of memory". A run with another limit gets a module of its own.
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
let core;
let variant;
// The module for the current limit, and that limit (bytes of program heap).
let Q;
let qFor = -1;
// Times the memory could not grow (an allocation then fails inside QuickJS): how a run knows it hit the cap.
let growFailures = 0;

const PAGE = 65536;
// The build's own initial memory (its INITIAL_MEMORY, 16 MiB): data, stack and the first heap.
// The memory it imports may not start smaller; it may stop at any size above.
const BASE_PAGES = 256;

function pagesFor(memoryBytes) {
  return BASE_PAGES + Math.ceil(memoryBytes / PAGE);
}

async function moduleFor(memoryBytes) {
  if (Q && qFor === memoryBytes) return Q;
  Q = undefined;
  const wasmMemory = new WebAssembly.Memory({ initial: BASE_PAGES, maximum: pagesFor(memoryBytes) });
  const grow = wasmMemory.grow.bind(wasmMemory);
  wasmMemory.grow = (delta) => {
    try {
      return grow(delta);
    } catch (e) {
      growFailures++;
      throw e;
    }
  };
  Q = await core.newQuickJSWASMModuleFromVariant(core.newVariant(variant, { wasmMemory }));
  qFor = memoryBytes;
  return Q;
}

function post(m) {
  parentPort.postMessage(m);
}

// The most characters of JSON one value may take when it leaves QuickJS (an API
// call's arguments, the final or thrown value). QuickJS shares strings by
// reference: an array of 1,000 references to one 1 MB string costs 8 KB inside
// its memory limit but 1 GB once copied out, so a value is serialised inside
// QuickJS (under its memory limit) and only a text under this cap is copied.
const MAX_VALUE_CHARS = 1024 * 1024;

class TooLarge extends Error {}

// A guest value as host data, read without ever holding more than max characters of it on the host.
function boundedValue(ctx, handle, max) {
  const type = ctx.typeof(handle);
  if (type === 'undefined') return undefined;
  if (type === 'number' || type === 'boolean') return ctx.dump(handle);
  if (type === 'string') {
    const n = ctx.getLength(handle);
    if (n !== undefined && n > max) throw new TooLarge('a string of ' + n + ' characters');
    return ctx.getString(handle);
  }
  if (type === 'bigint' || type === 'symbol' || type === 'function') return String(type === 'function' ? '[function]' : ctx.dump(handle));
  const json = ctx.getProp(ctx.global, 'JSON');
  const stringify = ctx.getProp(json, 'stringify');
  json.dispose();
  const r = ctx.callFunction(stringify, ctx.undefined, handle);
  stringify.dispose();
  if (r.error) {
    r.error.dispose();
    throw new TooLarge('a value that cannot be written as JSON within the memory limit (too large, or circular)');
  }
  try {
    if (ctx.typeof(r.value) !== 'string') return undefined;
    const n = ctx.getLength(r.value);
    if (n !== undefined && n > max) throw new TooLarge(n + ' characters of JSON');
    return JSON.parse(ctx.getString(r.value));
  } finally {
    r.value.dispose();
  }
}

// What a thrown guest value looks like on the host: name, message, stack (for the line), each cut to a few KB.
function describeThrown(ctx, handle) {
  const cut = (t) => (t.length > 10000 ? t.slice(0, 10000) + '… [' + (t.length - 10000) + ' more characters]' : t);
  try {
    if (ctx.typeof(handle) === 'object') {
      const read = (key) => {
        const h = ctx.getProp(handle, key);
        try {
          return ctx.typeof(h) === 'string' ? cut(String(boundedValue(ctx, h, MAX_VALUE_CHARS))) : undefined;
        } finally {
          h.dispose();
        }
      };
      const message = read('message');
      if (message !== undefined) return { name: read('name') || 'Error', message, stack: read('stack') || '' };
    }
    return { name: 'Thrown', message: cut(show(boundedValue(ctx, handle, MAX_VALUE_CHARS))), stack: '' };
  } catch (e) {
    return { name: 'Error', message: 'an error that could not be read (' + String(e && e.message) + ')', stack: '' };
  }
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
  const failuresBefore = growFailures;
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
    // Still set: it refuses one block over the limit before the memory would have to grow for it.
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
    // A growable SharedArrayBuffer here grows past its allocation (writes land on QuickJS's own heap);
    // a program has no second thread to share memory with, so neither it nor Atomics is there.
    ctx.evalCode('delete globalThis.SharedArrayBuffer; delete globalThis.Atomics;', 'setup.js').dispose();
    const print = ctx.newFunction('print', (...args) => {
      write(
        args
          .map((h) => {
            try {
              if (ctx.typeof(h) === 'object') {
                const stack = ctx.getProp(h, 'stack');
                const isError = ctx.typeof(stack) === 'string';
                stack.dispose();
                if (isError) {
                  const e = describeThrown(ctx, h);
                  return e.name + ': ' + e.message;
                }
              }
              return show(boundedValue(ctx, h, limits.maxOutputChars + 1));
            } catch (e) {
              return '[too large to print: ' + e.message + ']';
            }
          })
          .join(' ') + '\n',
      );
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
        let args;
        try {
          args = argHandles.map((h) => boundedValue(ctx, h, MAX_VALUE_CHARS));
        } catch (e) {
          throw ctx.newError({
            name: 'RangeError',
            message: name + ': the arguments are too large to send (' + e.message + '; at most ' + MAX_VALUE_CHARS + ' characters of JSON)',
          });
        }
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
    outcome = settle(ctx, rt, evaluated, limits);
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
  const heapBytes = Q.getWasmMemory().buffer.byteLength;
  // With the memory full (it could not grow in this run), QuickJS may fail outside the program's code (reading its result) or have no
  // room left to build its own "out of memory" error (the program then seems to throw null): both are the limit.
  const full = growFailures > failuresBefore;
  if (!outcome.ok && full && (outcome.error.name === 'SandboxError' || (outcome.error.name === 'Thrown' && outcome.error.message === 'null')))
    outcome = { ok: false, error: { name: 'InternalError', message: 'out of memory', stack: outcome.error.stack } };
  post({ type: 'done', run, ...outcome, ...(fatal !== undefined ? { fatal } : {}), ...(reach ? { reach } : {}), retire, heapBytes });

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
function settle(ctx, rt, evaluated, limits) {
  // Room to read an error after the program exhausted its memory, and still a limit.
  const release = () => {
    rt.removeInterruptHandler();
    rt.setMemoryLimit(limits.memoryBytes + 16 * 1024 * 1024);
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
      try {
        return { ok: true, value: boundedValue(ctx, state.value, MAX_VALUE_CHARS) };
      } catch (e) {
        const message =
          "the program's result is too large to return (" + e.message + '; at most ' + MAX_VALUE_CHARS + ' characters of JSON): return a summary';
        return { ok: false, error: { name: 'RangeError', message, stack: '' } };
      } finally {
        state.value.dispose();
      }
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
    core = require(workerData.core);
    const v = require(workerData.variant);
    variant = v.default || v;
    await moduleFor(workerData.memoryBytes);
  } catch (e) {
    post({ type: 'boot_failed', message: String(e && e.message) });
    return;
  }
  // One run at a time (the host waits for 'done'); a run with another memory limit first gets its module.
  let queue = Promise.resolve();
  parentPort.on('message', (msg) => {
    if (!msg || msg.type !== 'run') return;
    queue = queue.then(async () => {
      try {
        await moduleFor(msg.limits.memoryBytes);
      } catch (e) {
        post({ type: 'done', run: msg.run, ok: false, error: { name: 'SandboxError', message: 'QuickJS could not start: ' + String(e && e.message), stack: '' }, retire: true, heapBytes: 0 });
        return;
      }
      runProgram(msg);
    });
  });
  post({ type: 'ready' });
})();
`;
