// skillbridge models list|pull ID|rm ID|add FILE: the local models folder from the command
// line. A download shows a bar on a terminal and a line per 10 % otherwise; Ctrl-C stops it
// and keeps the part for the next pull.
import { loadCatalogue } from '../../../agents/models/local/catalogue';
import type { DownloadProgress } from '../../../agents/models/local/download';
import { defaultModelsDir } from '../../../agents/models/local/models-dir';
import { ModelStore, type StoredModel } from '../../../agents/models/local/store';
import { ModelStoreError, type ModelStoreErrorCode } from '../../../agents/models/local/store-errors';
import { type Parsed, UsageError, stringFlag } from '../args';
import { type Output, json, stdio } from '../output';

/** Failures that are the caller's input (exit 2); the rest are operations that failed (exit 1). */
const INPUT_ERRORS = new Set<ModelStoreErrorCode>([
  'unknown-model',
  'bad-catalogue',
  'bad-name',
  'not-installed',
  'exists',
  'no-file',
  'not-gguf',
]);

export function formatBytes(n: number | null): string {
  if (n === null) return '?';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(0)} kB`;
  return `${n} B`;
}

function status(m: StoredModel): string {
  if (m.installed) return m.linkedTo ? `installed (link to ${m.linkedTo})` : 'installed';
  if (m.partialBytes > 0 && m.sizeBytes) return `partial ${Math.floor((100 * m.partialBytes) / m.sizeBytes)}% (pull resumes)`;
  return 'not installed';
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  '));
}

function listLines(models: StoredModel[], dir: string): string[] {
  const rows = [['ID', 'NAME', 'SIZE', 'RAM', 'LICENCE', 'STATUS']];
  for (const m of models) {
    const c = m.catalogue;
    rows.push([
      m.id,
      m.name,
      formatBytes(m.sizeBytes),
      c ? `~${formatBytes(c.ramBytes)}` : '?',
      c?.licence ?? '(your file)',
      `${status(m)}${m.check === 'size-only' ? ' [unverified: no published checksum]' : ''}`,
    ]);
  }
  return [
    ...table(rows),
    '',
    `Folder: ${dir}`,
    'Get one: skillbridge models pull ID   Use one: --model local:ID   Your own .gguf: skillbridge models add FILE',
  ];
}

function progressPrinter(o: Output, id: string): { onProgress: (p: DownloadProgress) => void; end: () => void } {
  const tty = o === stdio && Boolean(process.stderr.isTTY);
  let lastTenth = -1;
  let drawn = false;
  return {
    onProgress: (p) => {
      const frac = p.total ? Math.min(1, p.received / p.total) : 0;
      const rate = `${formatBytes(p.bytesPerSecond)}/s`;
      if (tty) {
        const w = 30;
        const bar = '#'.repeat(Math.round(frac * w)).padEnd(w, '-');
        process.stderr.write(
          `\r${id} [${bar}] ${(frac * 100).toFixed(0).padStart(3)}% ${formatBytes(p.received)} / ${formatBytes(p.total)}  ${rate}   `,
        );
        drawn = true;
        return;
      }
      const tenth = Math.floor(frac * 10);
      if (tenth > lastTenth) {
        lastTenth = tenth;
        o.err(`${id}: ${tenth * 10}% (${formatBytes(p.received)} of ${formatBytes(p.total)}, ${rate})`);
      }
    },
    end: () => {
      if (drawn) process.stderr.write('\n');
      drawn = false;
    },
  };
}

function store(p: Parsed): ModelStore {
  const dir = stringFlag(p.flags, 'dir') ?? defaultModelsDir();
  const mirror = process.env['SKILLBRIDGE_MODELS_MIRROR'];
  return new ModelStore(dir, { catalogue: loadCatalogue(), ...(mirror ? { mirror } : {}) });
}

function needArg(p: Parsed, what: string, example: string): string {
  const v = p.positionals[1];
  if (!v) throw new UsageError(`give ${what}: ${example}`);
  if (p.positionals.length > 2) throw new UsageError(`one ${what} at a time: ${example}`);
  return v;
}

async function pull(p: Parsed, o: Output, s: ModelStore): Promise<number> {
  const id = needArg(p, 'a model id', 'skillbridge models pull qwen2.5-1.5b-instruct (see skillbridge models list)');
  const ac = new AbortController();
  const onSigint = (): void => ac.abort();
  process.once('SIGINT', onSigint);
  const bar = p.flags['json'] ? undefined : progressPrinter(o, id);
  try {
    const r = await s.pull(id, {
      signal: ac.signal,
      ...(bar ? { onProgress: bar.onProgress } : {}),
      onNotice: (n) => {
        if (!p.flags['json']) o.err(`${id}: ${n}`);
      },
    });
    bar?.end();
    if (p.flags['json']) json(o, r);
    else if (r.alreadyInstalled) o.out(`${id} is already installed: ${r.file}`);
    else
      o.out(
        `${id}: ${formatBytes(r.bytes)} in ${r.file} (${r.sha256 ? 'SHA-256 checked' : 'size checked; unverified: no published checksum'}). Use it: --model local:${id}`,
      );
    return 0;
  } finally {
    bar?.end();
    process.off('SIGINT', onSigint);
  }
}

async function act(p: Parsed, o: Output): Promise<number> {
  const sub = p.positionals[0] ?? 'list';
  const s = store(p);
  switch (sub) {
    case 'list': {
      const models = await s.list();
      if (p.flags['json']) json(o, { dir: s.dir, models });
      else for (const line of listLines(models, s.dir)) o.out(line);
      return 0;
    }
    case 'pull':
      return await pull(p, o, s);
    case 'rm': {
      const r = await s.rm(needArg(p, 'a model id', 'skillbridge models rm qwen2.5-1.5b-instruct'));
      if (p.flags['json']) json(o, r);
      else o.out(`removed ${r.removed.join(', ')}`);
      return 0;
    }
    case 'add': {
      const name = stringFlag(p.flags, 'name');
      const r = await s.add(
        needArg(p, 'a .gguf file', 'skillbridge models add ~/Downloads/model.gguf [--name NAME]'),
        name ? { name } : {},
      );
      if (p.flags['json']) json(o, r);
      else
        o.out(
          `${r.id}: ${r.how === 'already-there' ? 'already in the folder' : `added (${r.how})`} as ${r.file}. Use it: --model local:${r.id}`,
        );
      return 0;
    }
    default:
      throw new UsageError(`unknown models command "${sub}": use list, pull ID, rm ID or add FILE`);
  }
}

export async function modelsCommand(p: Parsed, o: Output): Promise<number> {
  try {
    return await act(p, o);
  } catch (e) {
    if (!(e instanceof ModelStoreError)) throw e;
    if (p.flags['json']) json(o, { error: { code: e.code, message: e.message } });
    else o.err(`skillbridge: ${e.message}`);
    return INPUT_ERRORS.has(e.code) ? 2 : 1;
  }
}
