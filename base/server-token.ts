// The one token rule for every server Skillbridge opens (web mode, robot-api,
// mcp --http, the live Foxglove view): a generated token carries 256 random
// bits; a token a person chooses (an environment variable, so it never shows in
// a process list) has at least 16 characters from the URL-safe set, so the same
// token works in a header, a URL query and a link. A server takes only a
// `ServerToken`, which only this module makes, so no server can skip the rule.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

declare const brand: unique symbol;
/** A token that passed the rule: generated here, or chosen and checked here. */
export type ServerToken = string & { readonly [brand]: 'ServerToken' };

export const MIN_CHOSEN_CHARS = 16;
export const MAX_CHOSEN_CHARS = 256;
/** URL-unreserved characters: no escaping in a query, a header or a WebSocket URL. */
const CHARSET = /^[A-Za-z0-9._~-]*$/;
const GENERATED_BYTES = 32;

/** A chosen token that breaks the rule; the message is one line naming where it came from and the fix. */
export class TokenError extends Error {
  override name = 'TokenError';
}

export function generateToken(): ServerToken {
  return randomBytes(GENERATED_BYTES).toString('base64url') as ServerToken;
}

/** Checks a chosen token; `source` names where it came from ("SKILLBRIDGE_ROBOT_TOKEN"). */
export function chosenToken(value: string, source: string): ServerToken {
  const fix = `choose ${MIN_CHOSEN_CHARS}-${MAX_CHOSEN_CHARS} letters, digits, ".", "_", "~" or "-" (or unset it for a random token)`;
  if (value.length === 0) throw new TokenError(`${source} is set but empty: ${fix}`);
  if (!CHARSET.test(value)) {
    const bad = [...value].find((c) => !CHARSET.test(c)) ?? '?';
    const shown = /^[\x21-\x7e]$/.test(bad) ? `"${bad}"` : `U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw new TokenError(`${source} has the character ${shown}: ${fix}`);
  }
  if (value.length < MIN_CHOSEN_CHARS)
    throw new TokenError(`${source} has ${value.length} characters, fewer than ${MIN_CHOSEN_CHARS}: ${fix}`);
  if (value.length > MAX_CHOSEN_CHARS)
    throw new TokenError(`${source} has ${value.length} characters, more than ${MAX_CHOSEN_CHARS}: ${fix}`);
  return value as ServerToken;
}

/** The token an environment variable chooses, or undefined when the variable is not set (set but empty is refused). */
export function tokenFromEnv(env: NodeJS.ProcessEnv, name: string): ServerToken | undefined {
  const value = env[name];
  return value === undefined ? undefined : chosenToken(value, name);
}

/** The server's token: the one given (checked again: a caller outside TypeScript may pass anything), else a new one. */
export function serverToken(given: ServerToken | undefined, source = 'token'): ServerToken {
  return given === undefined ? generateToken() : chosenToken(given, source);
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/**
 * Whether a request carries the token. Both sides are hashed first, so the
 * comparison takes the same time whatever the length or content of a guess.
 */
export function sameToken(given: unknown, token: ServerToken): boolean {
  if (typeof given !== 'string' || given.length === 0) return false;
  return timingSafeEqual(digest(given), digest(token));
}

/** The token in an `Authorization: Bearer TOKEN` header, if that is what the header holds. */
export function bearer(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : undefined;
}
