// Cost beside tokens: a price table the user can edit (US dollars per million
// input and output tokens, by model-spec pattern). The built-in table is
// eval/scale/prices.json; `--prices FILE` replaces it. A model the table does not
// name gets no cost (unknown, not zero).
import { readFailure, readUserTextSync } from '../../base/user-file';
import { z } from 'zod';
import builtin from './prices.json' with { type: 'json' };
import { EvalInputError } from '../runner/errors';

export const PriceTable = z.object({
  note: z.string().optional(),
  prices: z.array(
    z.object({
      model: z.string().min(1),
      inputPerMTok: z.number().nonnegative(),
      outputPerMTok: z.number().nonnegative(),
    }),
  ),
});
export type PriceTable = z.infer<typeof PriceTable>;

export const BUILTIN_PRICES: PriceTable = PriceTable.parse(builtin);

export function loadPrices(file: string): PriceTable {
  let text: string;
  try {
    text = readUserTextSync(file);
  } catch (e) {
    throw new EvalInputError('bad-option', `--prices ${file}: cannot read it (${readFailure(e)})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new EvalInputError('bad-option', `--prices ${file}: cannot read it as JSON (${(e as Error).message.split('\n')[0]})`);
  }
  const r = PriceTable.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new EvalInputError(
      'bad-option',
      `--prices ${file}: ${i.path.join('.') || '(top)'}: ${i.message}; expected {"prices":[{"model":"openai:gpt-4o*","inputPerMTok":2.5,"outputPerMTok":10}]}`,
    );
  }
  return r.data;
}

function matches(pattern: string, spec: string): boolean {
  const re = new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return re.test(spec);
}

/** Dollars for these tokens under the table, or undefined when the table does not price this model. */
export function priceOf(table: PriceTable, model: string, tokensIn: number, tokensOut: number): number | undefined {
  const p = table.prices.find((x) => matches(x.model, model));
  if (!p) return undefined;
  return (tokensIn * p.inputPerMTok + tokensOut * p.outputPerMTok) / 1e6;
}
