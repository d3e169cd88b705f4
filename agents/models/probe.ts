// Capability probe for a model endpoint, run when the user connects one: is
// the server there, which models does it list, does this model make native
// tool calls, and if not, can it follow RAIDER's text format instead? Local
// servers differ per model and template (research/ecosystem.md §2.7), so we ask
// rather than guess.
import { z } from 'zod';
import { ModelError, type ChatMessage, type ModelErrorKind, type ModelTool } from './model';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions } from './openai-compatible';
import { parseModelSpec, providerHints, resolveApiKey, type CreateModelOptions } from './spec';
import { checkGgufFile } from './local/local-model';
import { type LocalModelFiles, localSpecFile } from './local/local-spec';
import { parseTextToolCalls, withTextToolCalls } from './text-tool-calls';
import { encodePng } from '../../base/png';

export interface ProbeOptions {
  baseURL: string;
  /** The model to test; defaults to the first one the server lists. */
  model?: string;
  apiKey?: string;
  fetch?: OpenAICompatibleOptions['fetch'];
  /** Per request (default 30 s: a local model may need loading first). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The provider's start and pull commands, for the fix an error suggests. */
  hints?: { start?: string; pull?: string };
  /** Also test image input (the spec says `+images`): one request with a small picture. */
  images?: boolean;
}

export interface ProbeReport {
  baseURL: string;
  model?: string;
  reachable: boolean;
  /** Model ids from GET /models (empty when the server does not list them). */
  models: string[];
  nativeToolCalls: boolean;
  /** The model wrote a parsable RAIDER `call_tool{…}` when asked to (tried only if native calls failed). */
  textToolCalls: boolean;
  /** Round trip of GET /models. */
  latencyMs: number;
  /** Duration of the native tool-call request, when one was made. */
  completionMs?: number;
  error?: { kind: ModelErrorKind; message: string; fix?: string };
  /** Things worth telling the user that are not errors. */
  notes: string[];
  /** Whether the model read a test picture (its colour); absent when not tested. */
  imageInput?: boolean;
}

const ModelsZ = z.object({ data: z.array(z.object({ id: z.string() })) });

const ADD_TOOL: ModelTool = {
  type: 'function',
  function: {
    name: 'add',
    description: 'Adds two numbers and returns the sum.',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number', description: 'first number' }, b: { type: 'number', description: 'second number' } },
      required: ['a', 'b'],
    },
  },
};

const PROBE_MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are being tested. When a tool can answer, call it instead of answering yourself.' },
  { role: 'user', content: 'What is 2 + 3? Use the add tool.' },
];

export async function probeModel(opts: ProbeOptions): Promise<ProbeReport> {
  const report = await probeTools(opts);
  if (!opts.images || report.error || !report.model) return report;
  return { ...report, ...(await probeImages(opts, report.model, report.notes)) };
}

async function probeTools(opts: ProbeOptions): Promise<ProbeReport> {
  const baseURL = opts.baseURL.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const report: ProbeReport = {
    baseURL,
    reachable: false,
    models: [],
    nativeToolCalls: false,
    textToolCalls: false,
    latencyMs: 0,
    notes: [],
  };
  const fail = (e: ModelError): ProbeReport => ({
    ...report,
    error: { kind: e.kind, message: e.message, ...(e.fix ? { fix: e.fix } : {}) },
  });

  // 1. List models (raw fetch: we want the status and body as they are).
  const started = performance.now();
  let res: Response;
  try {
    const signals = [AbortSignal.timeout(timeoutMs), ...(opts.signal ? [opts.signal] : [])];
    res = await (opts.fetch ?? fetch)(`${baseURL}/models`, {
      headers: opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {},
      signal: AbortSignal.any(signals),
    });
  } catch (e) {
    report.latencyMs = Math.round(performance.now() - started);
    if (opts.signal?.aborted)
      return fail(new ModelError(`The probe of ${baseURL} was aborted.`, 'aborted', undefined, { endpoint: baseURL }));
    const timedOut = e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');
    // The message says what happened, the fix what to do (the provider's own start command when it has one).
    const fix = timedOut
      ? `Check that the server at ${baseURL} is not stuck (a model still loading can take a minute).`
      : (opts.hints?.start ?? `Start the server at ${baseURL}, or correct the base URL.`);
    return fail(
      new ModelError(
        `${baseURL} ${timedOut ? `did not answer within ${timeoutMs} ms` : 'could not be reached: nothing is listening there'}.`,
        timedOut ? 'timeout' : 'unreachable',
        undefined,
        { endpoint: baseURL, fix },
      ),
    );
  }
  report.latencyMs = Math.round(performance.now() - started);
  report.reachable = true;
  const bodyText = await res.text().catch(() => '');
  if (res.status === 401 || res.status === 403) {
    const fix = 'Check the API key (OPENAI_API_KEY or SKILLBRIDGE_API_KEY, or the key stored in settings).';
    return fail(new ModelError(`${baseURL} refused the API key (${res.status}). ${fix}`, 'auth', res.status, { endpoint: baseURL, fix }));
  }
  if (res.ok) {
    const parsed = ModelsZ.safeParse(safeJson(bodyText));
    if (parsed.success) report.models = parsed.data.data.map((m) => m.id);
    else report.notes.push(`GET ${baseURL}/models answered, but not with a model list; is this an OpenAI-compatible /v1 endpoint?`);
  } else {
    report.notes.push(`GET ${baseURL}/models answered ${res.status}; some servers do not list models.`);
  }

  const model = opts.model ?? report.models[0];
  if (!model) {
    const fix = opts.hints?.pull ?? 'Name a model, e.g. ollama:qwen3:8b, or load one in the server.';
    return fail(new ModelError(`${baseURL} lists no models and none was named. ${fix}`, 'config', undefined, { endpoint: baseURL, fix }));
  }
  report.model = model;
  if (report.models.length && !report.models.includes(model)) {
    report.notes.push(
      `"${model}" is not among the listed models (${report.models.slice(0, 8).join(', ')}${report.models.length > 8 ? ', …' : ''}).`,
    );
  }

  // 2. One tiny native tool call.
  const llm = createOpenAICompatibleModel({
    id: `probe:${model}@${baseURL}`,
    baseURL,
    model,
    ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
    stream: false,
    timeoutMs,
    maxRetries: 0,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const t0 = performance.now();
  let leakedText = false;
  try {
    const r = await llm.complete({
      messages: PROBE_MESSAGES,
      tools: [ADD_TOOL],
      temperature: 0,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    report.nativeToolCalls = r.toolCalls.some((c) => c.function.name === ADD_TOOL.function.name);
    // A call written into the text (a template mismatch) still shows the model can call tools.
    leakedText =
      !report.nativeToolCalls && parseTextToolCalls(r.message.content ?? '', { tools: [ADD_TOOL], onlyKnown: true }).calls.length > 0;
    if (leakedText)
      report.notes.push('The server put the tool call in the text instead of tool_calls; the text fallback parser will be used.');
  } catch (e) {
    report.completionMs = Math.round(performance.now() - t0);
    if (!(e instanceof ModelError)) throw e;
    // A 400 often means "this model does not support tools": the text format may still work.
    if (e.kind !== 'config' || e.status !== 400) return fail(e);
    report.notes.push(`Native tool calls were rejected: ${e.message}`);
  }
  report.completionMs ??= Math.round(performance.now() - t0);
  if (report.nativeToolCalls) return report;
  if (leakedText) return { ...report, textToolCalls: true };

  // 3. RAIDER's text format, for models without native tool calling.
  try {
    const r = await withTextToolCalls(llm, { format: 'raider' }).complete({
      messages: PROBE_MESSAGES,
      tools: [ADD_TOOL],
      temperature: 0,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    report.textToolCalls = r.toolCalls.some((c) => c.function.name === ADD_TOOL.function.name);
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    return fail(e);
  }
  if (!report.textToolCalls) report.notes.push('The model made no tool call in either form; it may not be able to drive tools.');
  else report.notes.push('Use textToolCalls: "raider" for this model.');
  return report;
}

/** A 32×32 picture, all one colour a model names in one word. */
function redSquare(): string {
  const rgb = new Uint8Array(32 * 32 * 3);
  for (let i = 0; i < rgb.length; i += 3) rgb[i] = 220;
  return encodePng(32, 32, rgb).toString('base64');
}

/** Sends one small picture and asks its colour: a model that names it reads images. Said once, in the notes, when not. */
async function probeImages(opts: ProbeOptions, model: string, notes: string[]): Promise<Pick<ProbeReport, 'imageInput' | 'notes'>> {
  const llm = createOpenAICompatibleModel({
    id: `probe:${model}@${opts.baseURL}`,
    baseURL: opts.baseURL.replace(/\/+$/, ''),
    model,
    input: 'images',
    ...(opts.apiKey ? { apiKey: opts.apiKey } : {}),
    stream: false,
    timeoutMs: opts.timeoutMs ?? 30_000,
    maxRetries: 0,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const refused =
    'The model did not read the test picture: it gets the text tools, without the camera. Drop "+images" from the spec, or load a vision model (with its projector).';
  try {
    const r = await llm.complete({
      messages: [
        {
          role: 'user',
          content: 'What colour fills this picture? Answer with one word.',
          images: [{ mimeType: 'image/png', data: redSquare() }],
        },
      ],
      temperature: 0,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const read = /\bred\b/i.test(r.message.content ?? '');
    return { imageInput: read, notes: read ? notes : [...notes, refused] };
  } catch (e) {
    if (!(e instanceof ModelError)) throw e;
    return { imageInput: false, notes: [...notes, `${refused} (${e.message})`] };
  }
}

/** Probes the endpoint a spec names, with its key from the secret store or environment. */
export async function probeSpec(
  spec: string,
  opts: Pick<CreateModelOptions, 'env' | 'secrets' | 'allowEnvKeyFor' | 'fetch' | 'timeoutMs'> & {
    signal?: AbortSignal;
    /** Where `local:` may look (the host's models folder for a page; 'any' for the person at a terminal): no default. */
    localModels: LocalModelFiles;
  },
): Promise<ProbeReport> {
  const parsed = parseModelSpec(spec);
  if (parsed.provider === 'scripted') {
    return {
      baseURL: '',
      model: parsed.file,
      reachable: true,
      models: [],
      nativeToolCalls: true,
      textToolCalls: false,
      latencyMs: 0,
      notes: ['A scripted model replays its file; nothing to probe.'],
    };
  }
  if (parsed.provider === 'local') {
    const file = localSpecFile(parsed.name, opts.localModels, opts.env ?? process.env);
    let problem: string | undefined;
    try {
      checkGgufFile(file);
    } catch (e) {
      problem = e instanceof Error ? e.message : String(e);
    }
    return {
      baseURL: '',
      model: file,
      reachable: !problem,
      models: [],
      nativeToolCalls: !problem,
      textToolCalls: false,
      latencyMs: 0,
      notes: [problem ?? 'A local model runs in the app; tool calls come natively or from a JSON-schema grammar.'],
    };
  }
  const apiKey = await resolveApiKey(parsed, opts);
  return probeModel({
    baseURL: parsed.baseURL,
    model: parsed.model,
    hints: providerHints(parsed.provider, parsed.model),
    ...(apiKey ? { apiKey } : {}),
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(parsed.input === 'images' ? { images: true } : {}),
  });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
