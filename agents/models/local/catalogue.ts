// The short list of small tool-calling GGUF models offered for download: ones that run on a
// laptop CPU, from their publishers' (or well-known quantisers') Hugging Face repositories.
// No figure here is guessed: sizes and SHA-256 digests are copied from a source named beside
// each entry. Where no digest could be confirmed, `sha256` is null: such a download is checked
// by its size only and every listing calls it "unverified". RAM figures are estimates (file +
// a few thousand tokens of context + runtime) and say so.
import { readFailure, readUserTextSync } from '../../../base/user-file';
import { z } from 'zod';
import { ModelStoreError } from './store-errors';

/** The largest file a catalogue may offer: far above any model a laptop CPU runs. */
export const MAX_MODEL_BYTES = 64 * 2 ** 30;

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lower-case hex digits');

export const CatalogueEntrySchema = z.strictObject({
  /** The name in `local:ID` and in `skillbridge models pull ID`; the file is `<modelsDir>/<ID>.gguf`. */
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'id: lower-case letters, digits, ".", "_" and "-"'),
  name: z.string().min(3),
  publisher: z.string().min(2),
  /** Who made the GGUF file when it is not the publisher. */
  quantisedBy: z.string().min(2),
  licence: z.string().min(3),
  parameters: z.string().min(2),
  quantisation: z.string().min(2),
  /** The file's exact size: a pull reads no byte past it. */
  sizeBytes: z
    .number()
    .int()
    .positive()
    .max(MAX_MODEL_BYTES, `sizeBytes: at most ${MAX_MODEL_BYTES / 2 ** 30} GiB (a model a laptop runs)`),
  /** An estimate of memory while running with a few thousand tokens of context. */
  ramBytes: z.number().int().positive(),
  url: z.url({ protocol: /^https?$/ }).refine((u) => u.endsWith('.gguf'), 'url: the address of a .gguf file'),
  /** null: no digest could be confirmed from a source; the download is checked by size only. */
  sha256: sha256.nullable(),
  /** Says what the model is good for, in one line for the list. */
  note: z.string().min(3),
});
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>;

const gb = (n: number): number => Math.round(n * 1e9);

// Sources (read for this list; no network here):
//  [a] a model-preparation script that pins Qwen/Qwen2.5-1.5B-Instruct-GGUF at revision
//      91cad51170dc346986eccefdc2dd33a9da36ead9 with the file's size and SHA-256;
//  [b] a model-selection record quoting Hugging Face LFS metadata for Qwen/Qwen3-1.7B-GGUF
//      (revision 90862c4b9d2787eaed51d12237eafdfe7c5f6077) and Qwen/Qwen3-4B-GGUF
//      (revision bc640142c66e1fdd12af0bd68f40445458f3869b): sizes and LFS SHA-256;
//  [c] a benchmark record checksumming bartowski/Llama-3.2-1B-Instruct-GGUF's Q4_K_M file
//      (size and SHA-256), whose size an app catalogue [d] repeats;
//  [d] an iOS app's model catalogue with exact byte sizes served by Hugging Face (Llama 3.2 1B
//      and 3B), and RAM-at-runtime figures used below for the Llama entries;
//  [e] a desktop app's catalogue with the byte size of Qwen/Qwen2.5-0.5B-Instruct-GGUF's
//      Q4_K_M file; the model cards give licences (Qwen2.5 0.5B/1.5B and Qwen3: Apache-2.0;
//      Llama 3.2: Llama 3.2 Community License).
const ENTRIES: unknown[] = [
  {
    // size [e]; no digest found: unverified.
    id: 'qwen2.5-0.5b-instruct',
    name: 'Qwen2.5 0.5B Instruct',
    publisher: 'Qwen (Alibaba Cloud)',
    quantisedBy: 'Qwen',
    licence: 'Apache-2.0',
    parameters: '0.5B',
    quantisation: 'Q4_K_M',
    sizeBytes: 491_400_032,
    ramBytes: gb(1.0),
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
    sha256: null,
    note: 'smallest and fastest; tool calls work for short, plain requests',
  },
  {
    // size and digest [a], at the pinned revision.
    id: 'qwen2.5-1.5b-instruct',
    name: 'Qwen2.5 1.5B Instruct',
    publisher: 'Qwen (Alibaba Cloud)',
    quantisedBy: 'Qwen',
    licence: 'Apache-2.0',
    parameters: '1.5B',
    quantisation: 'Q4_K_M',
    sizeBytes: 1_117_320_736,
    ramBytes: gb(2.1),
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/91cad51170dc346986eccefdc2dd33a9da36ead9/qwen2.5-1.5b-instruct-q4_k_m.gguf',
    sha256: '6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e',
    note: 'a good first download: follows tool schemas well for its size',
  },
  {
    // size and digest [b]; the publisher's repository holds Q8_0 only at that revision.
    id: 'qwen3-1.7b',
    name: 'Qwen3 1.7B',
    publisher: 'Qwen (Alibaba Cloud)',
    quantisedBy: 'Qwen',
    licence: 'Apache-2.0',
    parameters: '1.7B',
    quantisation: 'Q8_0',
    sizeBytes: 1_834_426_016,
    ramBytes: gb(2.6),
    url: 'https://huggingface.co/Qwen/Qwen3-1.7B-GGUF/resolve/90862c4b9d2787eaed51d12237eafdfe7c5f6077/Qwen3-1.7B-Q8_0.gguf',
    sha256: '061b54daade076b5d3362dac252678d17da8c68f07560be70818cace6590cb1a',
    note: 'reasoning model (thinks before answering); slower per answer, better plans',
  },
  {
    // size and digest [b].
    id: 'qwen3-4b',
    name: 'Qwen3 4B',
    publisher: 'Qwen (Alibaba Cloud)',
    quantisedBy: 'Qwen',
    licence: 'Apache-2.0',
    parameters: '4B',
    quantisation: 'Q4_K_M',
    sizeBytes: 2_497_280_256,
    ramBytes: gb(4.0),
    url: 'https://huggingface.co/Qwen/Qwen3-4B-GGUF/resolve/bc640142c66e1fdd12af0bd68f40445458f3869b/Qwen3-4B-Q4_K_M.gguf',
    sha256: '7485fe6f11af29433bc51cab58009521f205840f5b4ae3a32fa7f92e8534fdf5',
    note: 'the strongest here; wants 8 GB of RAM in the machine',
  },
  {
    // size and digest [c] (size also [d]); RAM [d].
    id: 'llama3.2-1b-instruct',
    name: 'Llama 3.2 1B Instruct',
    publisher: 'Meta',
    quantisedBy: 'bartowski',
    licence: 'Llama 3.2 Community License',
    parameters: '1B',
    quantisation: 'Q4_K_M',
    sizeBytes: 807_694_464,
    ramBytes: gb(1.6),
    url: 'https://huggingface.co/bartowski/Llama-3.2-1B-Instruct-GGUF/resolve/main/Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    sha256: '6f85a640a97cf2bf5b8e764087b1e83da0fdb51d7c9fab7d0fece9385611df83',
    note: 'small and quick; "Built with Llama"',
  },
  {
    // size and RAM [d]; no digest found: unverified.
    id: 'llama3.2-3b-instruct',
    name: 'Llama 3.2 3B Instruct',
    publisher: 'Meta',
    quantisedBy: 'hugging-quants',
    licence: 'Llama 3.2 Community License',
    parameters: '3B',
    quantisation: 'Q4_K_M',
    sizeBytes: 2_019_373_920,
    ramBytes: gb(3.4),
    url: 'https://huggingface.co/hugging-quants/Llama-3.2-3B-Instruct-Q4_K_M-GGUF/resolve/main/llama-3.2-3b-instruct-q4_k_m.gguf',
    sha256: null,
    note: 'better plans than the 1B; "Built with Llama"',
  },
];

/** The catalogue, validated when the module loads (a bad entry is a bug, caught by any test). */
export const CATALOGUE: readonly CatalogueEntry[] = Object.freeze(z.array(CatalogueEntrySchema).parse(ENTRIES));

export function catalogueEntry(id: string, catalogue: readonly CatalogueEntry[] = CATALOGUE): CatalogueEntry | undefined {
  return catalogue.find((e) => e.id === id);
}

/**
 * The catalogue in use: SKILLBRIDGE_MODELS_CATALOGUE names a JSON file of entries that replaces
 * the built-in list (a classroom's own models on its mirror), else the built-in list.
 */
export function loadCatalogue(env: NodeJS.ProcessEnv = process.env): readonly CatalogueEntry[] {
  const file = env['SKILLBRIDGE_MODELS_CATALOGUE'];
  if (!file) return CATALOGUE;
  let raw: unknown;
  try {
    raw = JSON.parse(readUserTextSync(file));
  } catch (e) {
    throw new ModelStoreError('bad-catalogue', `SKILLBRIDGE_MODELS_CATALOGUE=${file}: ${readFailure(e).split('\n')[0]}`);
  }
  const r = z.array(CatalogueEntrySchema).min(1).safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new ModelStoreError(
      'bad-catalogue',
      `SKILLBRIDGE_MODELS_CATALOGUE=${file}: entry ${issue.path.map(String).join('.')}: ${issue.message}`,
    );
  }
  return Object.freeze(r.data);
}
