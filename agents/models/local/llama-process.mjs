// The local model's own process: loads a GGUF file with node-llama-cpp's prebuilt
// llama.cpp and generates replies. A separate process, not the app's: generation
// keeps a core busy for seconds, native code on a user's file must not take the
// app down with it, and ending the process gives all its memory back.
// Plain JavaScript so it runs as is from the sources, the CLI bundle and the app.
// Messages: protocol.ts (the parent checks what this sends).
import { getLlama, LlamaChat } from 'node-llama-cpp';

/** @type {import('node-llama-cpp').Llama | undefined} */
let llama;
/** @type {import('node-llama-cpp').LlamaModel | undefined} */
let model;
/** @type {import('node-llama-cpp').LlamaContext | undefined} */
let context;
/** @type {import('node-llama-cpp').LlamaChat | undefined} */
let chat;
/** @type {import('node-llama-cpp').ChatWrapper | undefined} */
let wrapper;
let maxContext = 4096;
let threads = 1;
/** @type {Map<number, AbortController>} */
const running = new Map();
/** Ids aborted before their turn in the queue came. @type {Set<number>} */
const abortedEarly = new Set();
/** Generation is one at a time on one context sequence. */
let queue = Promise.resolve();

/**
 * The channel to the app: an Electron utility process has `process.parentPort`
 * (messages arrive as `{ data }`); a forked Node process has process.send.
 * @type {{ postMessage(m: unknown): void; on(ev: 'message', l: (e: { data: unknown }) => void): void } | undefined}
 */
const parentPort = /** @type {any} */ (process).parentPort;

/** @param {unknown} msg */
function send(msg) {
  if (parentPort) parentPort.postMessage(msg);
  else process.send?.(msg);
}

/** @param {unknown} e */
function messageOf(e) {
  return e instanceof Error ? e.message : String(e);
}

/** @param {import('./protocol').LoadRequest} req */
async function load(req) {
  const t0 = performance.now();
  maxContext = req.maxContext;
  threads = req.threads;
  try {
    llama ??= await getLlama({ gpu: req.gpu, build: 'never', logLevel: /** @type {any} */ ('error'), logger: () => {} });
    model = await llama.loadModel({ modelPath: req.file });
  } catch (e) {
    send({ type: 'error', kind: 'load', message: messageOf(e) });
    return;
  }
  const template = model.fileInfo.metadata?.tokenizer?.chat_template ?? '';
  // A template that renders tool definitions was trained on tool calls: use the wrapper's native syntax.
  const nativeTools = typeof template === 'string' && /\btools\b/.test(template);
  const probe = new LlamaChat({ contextSequence: (await ensureContext(256)).getSequence() });
  wrapper = probe.chatWrapper;
  await probe.dispose({ disposeSequence: true });
  send({
    type: 'loaded',
    trainContextSize: model.trainContextSize,
    chatWrapper: wrapper.wrapperName,
    nativeTools,
    loadMs: performance.now() - t0,
  });
}

/**
 * A context that holds `tokens`: the current one when big enough, else a new one
 * sized to the next power of two (contexts are costly to make, conversations grow).
 * @param {number} tokens
 */
async function ensureContext(tokens) {
  if (!model) throw new Error('no model loaded');
  if (context && context.contextSize >= tokens) return context;
  const cap = Math.min(model.trainContextSize, maxContext);
  let size = 2048;
  while (size < tokens) size *= 2;
  size = Math.min(size, cap);
  await chat?.dispose({ disposeSequence: true });
  chat = undefined;
  await context?.dispose();
  context = await model.createContext({ contextSize: size, sequences: 1, threads });
  return context;
}

/** @param {import('./protocol').GenerateRequest} req */
async function generate(req) {
  if (!model || !llama || !wrapper) return send({ type: 'error', id: req.id, kind: 'internal', message: 'no model loaded' });
  const abort = new AbortController();
  running.set(req.id, abort);
  // An abort that arrived while this request waited in the queue stops it before it starts.
  if (abortedEarly.delete(req.id)) {
    running.delete(req.id);
    return send({ type: 'error', id: req.id, kind: 'aborted', message: 'stopped before it started' });
  }
  const t0 = performance.now();
  try {
    const history = /** @type {import('node-llama-cpp').ChatHistoryItem[]} */ (req.history);
    // Count the prompt as the template renders it, so a conversation that no longer fits is said, not cut.
    const state = wrapper.generateContextState({ chatHistory: history, ...(req.functions ? { availableFunctions: req.functions } : {}) });
    const promptTokens = state.contextText.tokenize(model.tokenizer).length;
    const cap = Math.min(model.trainContextSize, maxContext);
    if (promptTokens + req.maxTokens > cap) {
      return send({ type: 'error', id: req.id, kind: 'context', message: 'does not fit', promptTokens, limit: cap });
    }
    const ctx = await ensureContext(promptTokens + req.maxTokens);
    chat ??= new LlamaChat({ contextSequence: ctx.getSequence(), chatWrapper: wrapper });
    const grammar = req.grammar ? await llama.createGrammarForJsonSchema(/** @type {any} */ (req.grammar)) : undefined;
    const meterBefore = chat.sequence.tokenMeter.usedOutputTokens;
    /** @type {number | null} */
    let first = null;
    let reasoning = '';
    const r = await chat.generateResponse(history, {
      ...(grammar ? { grammar } : {}),
      ...(req.functions ? { functions: /** @type {any} */ (req.functions), documentFunctionParams: true } : {}),
      maxTokens: req.maxTokens,
      temperature: req.temperature,
      seed: req.seed,
      signal: abort.signal,
      onResponseChunk: (chunk) => {
        first ??= performance.now() - t0;
        if (chunk.type === 'segment' && chunk.segmentType === 'thought') {
          reasoning += chunk.text;
          send({ type: 'reasoning', id: req.id, delta: chunk.text });
        } else if (chunk.text) send({ type: 'text', id: req.id, delta: chunk.text });
      },
    });
    const completionTokens = chat.sequence.tokenMeter.usedOutputTokens - meterBefore;
    send({
      type: 'done',
      id: req.id,
      text: r.response,
      reasoning,
      functionCalls: (r.functionCalls ?? []).map((c) => ({ name: c.functionName, params: c.params })),
      stopReason: r.metadata.stopReason,
      promptTokens,
      completionTokens,
      timeToFirstTokenMs: first,
      durationMs: performance.now() - t0,
      contextSize: ctx.contextSize,
    });
  } catch (e) {
    send({ type: 'error', id: req.id, kind: abort.signal.aborted ? 'aborted' : 'internal', message: messageOf(e) });
  } finally {
    running.delete(req.id);
  }
}

/** @param {import('./protocol').ToProcess} msg */
function receive(msg) {
  if (msg.type === 'load') queue = queue.then(() => load(msg));
  else if (msg.type === 'generate') queue = queue.then(() => generate(msg));
  else if (msg.type === 'abort') {
    const r = running.get(msg.id);
    if (r) r.abort();
    else abortedEarly.add(msg.id);
  } else if (msg.type === 'dispose') {
    for (const a of running.values()) a.abort();
    void (async () => {
      await context?.dispose().catch(() => {});
      await model?.dispose().catch(() => {});
      process.exit(0);
    })();
  }
}

if (parentPort) parentPort.on('message', (e) => receive(/** @type {import('./protocol').ToProcess} */ (e.data)));
else {
  process.on('message', (/** @type {import('./protocol').ToProcess} */ msg) => receive(msg));
  // The app is gone (a utility process is ended by Electron with its parent).
  process.on('disconnect', () => process.exit(0));
}
