// A server command's token from the environment (never a flag: a command line
// is visible to every user of the machine), under the one token rule
// (base/server-token.ts), and the live Foxglove view's extra allowed origins. A
// value that breaks the rule is a usage error: one line naming the variable and
// the fix, exit 2.
import { type ServerToken, TokenError, tokenFromEnv } from '../../base/server-token';
import { parseOrigin } from '../foxglove/access';
import { UsageError } from './args';

export function envToken(name: string, env: NodeJS.ProcessEnv = process.env): ServerToken | undefined {
  try {
    return tokenFromEnv(env, name);
  } catch (e) {
    if (e instanceof TokenError) throw new UsageError(e.message);
    throw e;
  }
}

/** Extra pages allowed to open the live Foxglove view: SKILLBRIDGE_FOXGLOVE_ORIGINS, comma-separated origins. */
export function foxgloveOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const raw = env['SKILLBRIDGE_FOXGLOVE_ORIGINS'];
  if (raw === undefined) return [];
  const list = raw.split(',').filter((o) => o.trim() !== '');
  if (list.length === 0)
    throw new UsageError('SKILLBRIDGE_FOXGLOVE_ORIGINS is set but names no origin: give SCHEME://HOST[:PORT],… or unset it');
  try {
    return list.map(parseOrigin);
  } catch (e) {
    throw new UsageError(`SKILLBRIDGE_FOXGLOVE_ORIGINS: ${(e as Error).message}`);
  }
}
