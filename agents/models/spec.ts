// Model spec strings, the one way a user names a model everywhere (CLI flags,
// settings, benchmark files): `ollama:qwen3:8b`, `openai:gpt-4o-mini`,
// `openai-compatible:my-model@http://10.0.0.5:8000/v1`, `scripted:demo.json`.
// A spec never holds a key: keys come from the environment or the app's secret store.
//
// Where a key may go: a key is sent only to the base URL it is for. A stored key
// is stored per base URL (the desktop app's keychain store). OPENAI_API_KEY goes
// to OpenAI only. SKILLBRIDGE_API_KEY goes to SKILLBRIDGE_API_BASE_URL when that
// is set; otherwise to the presets' fixed local URLs, and to any other base URL
// only when the host allows it (allowEnvKeyFor): the CLI does (the person at the
// terminal typed the URL); a host serving pages asks its person (serve
// --allow-key-for URL, a confirmation in the desktop app), so a page cannot send
// the host's key to a server of its choosing.
import { realpathSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { ModelError, type Model } from './model';
import { createOpenAICompatibleModel, type OpenAICompatibleOptions } from './openai-compatible';
import { localModelFromSpec, type LocalModelFiles } from './local/local-spec';
import { createScriptedModel, loadScriptedModel, parseScriptJson } from './scripted';
import { withTextToolCalls, type TextToolCallFormat } from './text-tool-calls';

export type ModelProvider = 'openai' | 'ollama' | 'lmstudio' | 'llamacpp' | 'vllm' | 'openai-compatible' | 'scripted' | 'local';
/** The providers reached over HTTP (every one but scripted replays and the built-in local runtime). */
export type ServerProvider = Exclude<ModelProvider, 'scripted' | 'local'>;

export type ParsedModelSpec =
  | { provider: ServerProvider; model: string; baseURL: string; spec: string; input?: 'images' }
  | { provider: 'scripted'; file: string; spec: string; input?: 'images' }
  | { provider: 'local'; name: string; spec: string };

interface ProviderInfo {
  form: string;
  baseURL?: string;
  /** Environment variables holding the key, in order of preference. */
  keyEnv: string[];
  keyRequired: boolean;
  supportsToolChoice?: boolean;
  /** Parse calls leaked into content (a known quirk of local servers). */
  textFallback: boolean;
  hints: (model: string) => { start?: string; pull?: string };
}

const PROVIDERS: Record<ServerProvider, ProviderInfo> = {
  openai: {
    form: 'openai:MODEL',
    baseURL: 'https://api.openai.com/v1',
    keyEnv: ['OPENAI_API_KEY', 'SKILLBRIDGE_API_KEY'],
    keyRequired: true,
    supportsToolChoice: true,
    textFallback: false,
    hints: () => ({}),
  },
  ollama: {
    form: 'ollama:MODEL (e.g. ollama:qwen3:8b)',
    baseURL: 'http://127.0.0.1:11434/v1',
    keyEnv: ['SKILLBRIDGE_API_KEY'],
    keyRequired: false,
    // Ollama ignores tool_choice; not sending it keeps requests honest.
    supportsToolChoice: false,
    textFallback: true,
    hints: (m) => ({ start: 'Start it with `ollama serve`.', pull: `Pull it with \`ollama pull ${m}\`.` }),
  },
  lmstudio: {
    form: 'lmstudio:MODEL',
    baseURL: 'http://127.0.0.1:1234/v1',
    keyEnv: ['SKILLBRIDGE_API_KEY'],
    keyRequired: false,
    textFallback: true,
    hints: (m) => ({
      start: 'Start the server in LM Studio (Developer tab) or with `lms server start`.',
      pull: `Load it with \`lms load ${m}\`.`,
    }),
  },
  llamacpp: {
    form: 'llamacpp:MODEL',
    baseURL: 'http://127.0.0.1:8080/v1',
    keyEnv: ['SKILLBRIDGE_API_KEY'],
    keyRequired: false,
    textFallback: true,
    hints: () => ({ start: 'Start it with `llama-server -m MODEL.gguf --jinja --port 8080`.' }),
  },
  vllm: {
    form: 'vllm:MODEL',
    baseURL: 'http://127.0.0.1:8000/v1',
    keyEnv: ['SKILLBRIDGE_API_KEY'],
    keyRequired: false,
    textFallback: true,
    hints: (m) => ({ start: `Start it with \`vllm serve ${m} --enable-auto-tool-choice --tool-call-parser hermes\`.` }),
  },
  'openai-compatible': {
    form: 'openai-compatible:MODEL@BASE_URL',
    keyEnv: ['SKILLBRIDGE_API_KEY'],
    keyRequired: false,
    textFallback: true,
    hints: () => ({}),
  },
};

const FORMS = [...Object.values(PROVIDERS).map((p) => p.form), 'scripted:FILE', 'local:FILE.gguf|NAME'];

/**
 * A kind of model a layer above adds by name (evaluation's reference policies:
 * `oracle`, `floor:noop`…), so this layer never imports it. A spec is `name` or
 * `name:rest`; hosts pass the factories they carry to createModel or openConversation.
 */
export interface ModelFactory<Ctx = unknown> {
  /** The spec's provider part, e.g. "oracle" or "floor". */
  readonly name: string;
  /** The accepted forms, for messages ("floor:noop|random|none"). */
  readonly forms: readonly string[];
  /** Checks the part after "name:" ("" when none) without building anything; throws ModelError('config') naming the fix. */
  validate(rest: string): void;
  /** Builds the model once the host's context (the robot, the simulator…) exists. */
  create(rest: string, ctx: Ctx): Model;
}

/** The factory a spec names, with the rest of the spec; undefined when no factory claims it. */
export function findModelFactory<Ctx>(
  spec: string,
  factories: readonly ModelFactory<Ctx>[] = [],
): { factory: ModelFactory<Ctx>; rest: string } | undefined {
  const s = spec.trim();
  const colon = s.indexOf(':');
  const name = (colon < 0 ? s : s.slice(0, colon)).toLowerCase();
  const factory = factories.find((f) => f.name === name);
  return factory ? { factory, rest: colon < 0 ? '' : s.slice(colon + 1).trim() } : undefined;
}

function specError(spec: string, why: string, extra: readonly string[] = []): ModelError {
  return new ModelError(`Bad model spec "${spec}": ${why}. Accepted forms: ${[...FORMS, ...extra].join(', ')}.`, 'config');
}

/**
 * A spec ending in `+images` names a model that reads images (a vision-language
 * model: gpt-4o, qwen2.5vl, gemma3): it is offered the robot's camera. Nothing
 * guesses it from the name; the capability probe (probeSpec) tests it.
 */
export const IMAGES_SUFFIX = '+images';

/** Splits a spec at its first ':' (model names contain ':', e.g. qwen3:8b). */
export function parseModelSpec(spec: string, extraForms: readonly string[] = []): ParsedModelSpec {
  const s = spec.trim();
  const colon = s.indexOf(':');
  if (colon <= 0) throw specError(spec, 'expected PROVIDER:MODEL', extraForms);
  const provider = s.slice(0, colon).toLowerCase();
  const images = s.endsWith(IMAGES_SUFFIX) && provider !== 'local';
  const input = images ? { input: 'images' as const } : {};
  const rest = s.slice(colon + 1, images ? -IMAGES_SUFFIX.length : undefined).trim();
  if (provider === 'scripted') {
    if (!rest) throw specError(spec, 'scripted needs a file, scripted:FILE');
    return { provider: 'scripted', file: rest, spec: s, ...input };
  }
  if (provider === 'local') {
    if (!rest) throw specError(spec, 'local needs a .gguf file or a model name, local:FILE.gguf or local:NAME');
    return { provider: 'local', name: rest, spec: s };
  }
  if (!isProvider(provider)) throw specError(spec, `unknown provider "${provider}"`, extraForms);
  if (provider === 'openai-compatible') {
    // Split at the last '@': model names may hold one (org@model), URLs rarely do after the host.
    const at = rest.lastIndexOf('@');
    if (at < 0) throw specError(spec, 'openai-compatible needs MODEL@BASE_URL');
    const model = rest.slice(0, at).trim();
    const baseURL = rest.slice(at + 1).trim();
    if (!model) throw specError(spec, 'the model name is empty');
    if (!/^https?:\/\/[^\s/]+/.test(baseURL)) throw specError(spec, `"${baseURL}" is not an http(s) URL`);
    return { provider, model, baseURL: baseURL.replace(/\/+$/, ''), spec: s, ...input };
  }
  if (!rest) throw specError(spec, `${provider} needs a model name, ${PROVIDERS[provider].form}`);
  if (/^https?:\/\//.test(rest) || rest.includes('@http'))
    throw specError(spec, `a base URL goes in openai-compatible:MODEL@BASE_URL, not ${provider}:`);
  return { provider, model: rest, baseURL: PROVIDERS[provider].baseURL ?? '', spec: s, ...input };
}

function isProvider(p: string): p is ServerProvider {
  return Object.hasOwn(PROVIDERS, p);
}

/** What a key is for: the server's base URL (normalised, see normalizeBaseURL), and its provider. */
export interface KeyScope {
  provider: ModelProvider;
  baseURL: string;
}

/** Looks a key up in the app's secret store: only a key stored for exactly this base URL. */
export type SecretLookup = (scope: KeyScope) => string | undefined | Promise<string | undefined>;

/** Where `scripted:FILE` may read: any file (the CLI), a scripts folder only (a host serving pages), or nothing. */
export type ScriptFiles = 'any' | 'none' | { dir: string };

export interface CreateModelOptions {
  /** Defaults to process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  secrets?: SecretLookup;
  /**
   * May an environment key not bound to a base URL (SKILLBRIDGE_API_KEY without
   * SKILLBRIDGE_API_BASE_URL) go to this one? Default yes: the person typed the spec.
   */
  allowEnvKeyFor?: (baseURL: string) => boolean | Promise<boolean>;
  /** Where `scripted:FILE` may read (default 'any'). */
  scriptFiles?: ScriptFiles;
  /** Where `local:` may load a model from (default 'any'; see local/local-spec.ts). */
  localModels?: LocalModelFiles;
  /** A scripted model's turns given as text (uploaded from a page); then no file is read. */
  scriptText?: string;
  /** For models without native tool calling: prompt for and parse calls in this text format. */
  textToolCalls?: TextToolCallFormat;
  stream?: boolean;
  timeoutMs?: number;
  maxRetries?: number;
  fetch?: OpenAICompatibleOptions['fetch'];
  /** Kinds of model added by a layer above (see ModelFactory); their specs are built with `factoryContext`. */
  factories?: readonly ModelFactory[];
  factoryContext?: unknown;
}

/** Where a provider's key is looked for, for messages and settings screens. */
export function keySources(provider: ModelProvider): string[] {
  return provider === 'scripted' || provider === 'local' ? [] : PROVIDERS[provider].keyEnv;
}

/** A base URL as keys are stored and compared: scheme, host and port (default ports dropped), path without trailing slashes. */
export function normalizeBaseURL(url: string): string {
  try {
    const u = new URL(url.trim());
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.trim().replace(/\/+$/, '');
  }
}

/** The fixed base URL of a provider preset (undefined for openai-compatible and scripted). */
/** How to start a provider's server and get a model onto it, in words (e.g. "Start it with `ollama serve`."). */
export function providerHints(provider: ModelProvider, model: string): { start?: string; pull?: string } {
  return provider === 'scripted' || provider === 'local' ? {} : PROVIDERS[provider].hints(model);
}

export function presetBaseURL(provider: ModelProvider): string | undefined {
  return provider === 'scripted' || provider === 'local' ? undefined : PROVIDERS[provider].baseURL;
}

/** Whether the environment key `name` may be sent to this spec's server (see the rule at the top). */
async function envKeyMaySend(
  name: string,
  parsed: Extract<ParsedModelSpec, { provider: ServerProvider }>,
  env: Readonly<Record<string, string | undefined>>,
  allow: CreateModelOptions['allowEnvKeyFor'],
): Promise<boolean> {
  const target = normalizeBaseURL(parsed.baseURL);
  if (name === 'OPENAI_API_KEY') return target === normalizeBaseURL(PROVIDERS.openai.baseURL ?? '');
  const bound = env['SKILLBRIDGE_API_BASE_URL'];
  if (bound) return normalizeBaseURL(bound) === target;
  if (parsed.provider !== 'openai-compatible') return true;
  return allow ? await allow(target) : true;
}

/**
 * Resolves the key for a parsed spec: a key stored for its base URL first (what
 * the user chose in the app), then an environment key that may go there.
 * Undefined when none may.
 */
export async function resolveApiKey(
  parsed: ParsedModelSpec,
  opts: Pick<CreateModelOptions, 'env' | 'secrets' | 'allowEnvKeyFor'>,
): Promise<string | undefined> {
  if (parsed.provider === 'scripted' || parsed.provider === 'local') return undefined;
  const stored = await opts.secrets?.({ provider: parsed.provider, baseURL: normalizeBaseURL(parsed.baseURL) });
  if (stored) return stored;
  const env = opts.env ?? process.env;
  for (const name of PROVIDERS[parsed.provider].keyEnv) {
    const v = env[name];
    if (v && (await envKeyMaySend(name, parsed, env, opts.allowEnvKeyFor))) return v;
  }
  return undefined;
}

/** Checks a spec without building a model (a factory's own check, or the provider forms). */
export function validateModelSpec(spec: string, factories: readonly ModelFactory[] = []): void {
  const found = findModelFactory(spec, factories);
  if (found) found.factory.validate(found.rest);
  else
    parseModelSpec(
      spec,
      factories.flatMap((f) => f.forms),
    );
}

/** The scripted model a spec names, from uploaded text or a file the host allows. */
function scriptedModel(spec: string, file: string, opts: CreateModelOptions): Model {
  if (opts.scriptText !== undefined) return createScriptedModel(parseScriptJson(opts.scriptText, 'The uploaded script'), { id: spec });
  const files = opts.scriptFiles ?? 'any';
  if (files === 'any') return loadScriptedModel(file);
  if (files === 'none')
    throw new ModelError('This host reads no script files: upload the script (its content) with the run instead.', 'config');
  // A name in the host's scripts folder: no paths, no hidden files, only .json.
  if (!/^[\w][\w.-]{0,99}\.json$/i.test(file) || basename(file) !== file)
    throw new ModelError(
      `"${file}" is not a script name: give the name of a .json file in the host's scripts folder (no folders), or upload the script.`,
      'config',
    );
  // Where the name leads, not how it is spelled: a link in the folder to a file elsewhere is not a script in it.
  const inFolder = (() => {
    try {
      const dir = realpathSync(files.dir);
      return realpathSync(join(dir, file)).startsWith(dir + sep);
    } catch {
      return true; // missing: loadScriptedModel says so, as for any name
    }
  })();
  if (!inFolder)
    throw new ModelError(
      `"${file}" is not a script in the host's scripts folder (it leads outside it); upload the script instead.`,
      'config',
    );
  return loadScriptedModel(join(files.dir, file));
}

export function createModel(spec: string, opts: CreateModelOptions = {}): Model {
  const found = findModelFactory(spec, opts.factories);
  if (found) {
    found.factory.validate(found.rest);
    const model = found.factory.create(found.rest, opts.factoryContext);
    return opts.textToolCalls ? withTextToolCalls(model, { format: opts.textToolCalls }) : model;
  }
  const parsed = parseModelSpec(
    spec,
    (opts.factories ?? []).flatMap((f) => f.forms),
  );
  let model: Model;
  if (parsed.provider === 'scripted') {
    const inner = scriptedModel(parsed.spec, parsed.file, opts);
    // A scripted stand-in for a model that sees: offered the camera; its turns are its own.
    model = parsed.input ? { id: inner.id, input: parsed.input, complete: (req) => inner.complete(req) } : inner;
  } else if (parsed.provider === 'local') {
    model = localModelFromSpec(parsed.spec, parsed.name, opts.localModels ?? 'any', opts.env ?? process.env);
  } else {
    const info = PROVIDERS[parsed.provider];
    const env = opts.env ?? process.env;
    const envKey = info.keyEnv.map((n) => env[n]).find(Boolean);
    if (info.keyRequired && !envKey && !opts.secrets) {
      throw new ModelError(
        `${parsed.spec}: no API key. Set ${info.keyEnv.join(' or ')}, or store a key in the settings.`,
        'auth',
        undefined,
        { endpoint: parsed.baseURL, fix: `Set ${info.keyEnv.join(' or ')}.` },
      );
    }
    const keyMissing = `Set ${info.keyEnv.join(' or ')}, or store a key for ${parsed.provider} in the settings.`;
    model = createOpenAICompatibleModel({
      id: parsed.spec,
      baseURL: parsed.baseURL,
      model: parsed.model,
      ...(parsed.input ? { input: parsed.input } : {}),
      apiKey: async () => {
        const key = await resolveApiKey(parsed, opts);
        if (key) return key;
        if (info.keyRequired)
          throw new ModelError(`${parsed.spec}: no API key. ${keyMissing}`, 'auth', undefined, {
            endpoint: parsed.baseURL,
            fix: keyMissing,
          });
        return 'not-needed';
      },
      ...(info.supportsToolChoice !== undefined ? { supportsToolChoice: info.supportsToolChoice } : {}),
      textToolCallFallback: info.textFallback,
      hints: { ...info.hints(parsed.model), key: keyMissing },
      ...(opts.stream !== undefined ? { stream: opts.stream } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts.maxRetries !== undefined ? { maxRetries: opts.maxRetries } : {}),
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
    });
  }
  return opts.textToolCalls ? withTextToolCalls(model, { format: opts.textToolCalls }) : model;
}
