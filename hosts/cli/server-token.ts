// A server command's token from the environment (never a flag: a command line
// is visible to every user of the machine), under the one token rule
// (base/server-token.ts). A token that breaks the rule is a usage error: one
// line naming the variable and the fix, exit 2.
import { type ServerToken, TokenError, tokenFromEnv } from '../../base/server-token';
import { UsageError } from './args';

export function envToken(name: string, env: NodeJS.ProcessEnv = process.env): ServerToken | undefined {
  try {
    return tokenFromEnv(env, name);
  } catch (e) {
    if (e instanceof TokenError) throw new UsageError(e.message);
    throw e;
  }
}
