// The one token rule: generated tokens carry 256 random bits, a chosen one has
// 16+ URL-safe characters or is refused with one line naming its source, and a
// guess is compared in constant time. The property test draws tokens of random
// length and characters (ASCII, URL-unsafe, control, non-BMP) against the rule.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_CHOSEN_CHARS,
  MIN_CHOSEN_CHARS,
  TokenError,
  chosenToken,
  generateToken,
  sameToken,
  serverToken,
  tokenFromEnv,
} from './server-token';

const SAFE = /^[A-Za-z0-9._~-]+$/;

describe('the server token rule', () => {
  it('generates 256-bit tokens that are URL-safe and never repeat', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const t = generateToken();
      expect(t).toMatch(SAFE);
      expect(Buffer.from(t, 'base64url')).toHaveLength(32);
      seen.add(t);
    }
    expect(seen.size).toBe(200);
  });

  it('refuses a one-character token, naming the variable and the fix', () => {
    expect(() => chosenToken('x', 'SKILLBRIDGE_ROBOT_TOKEN')).toThrow(
      /^SKILLBRIDGE_ROBOT_TOKEN has 1 characters, fewer than 16: choose 16-256 letters/,
    );
    expect(() => tokenFromEnv({ SKILLBRIDGE_MCP_TOKEN: '' }, 'SKILLBRIDGE_MCP_TOKEN')).toThrow(/SKILLBRIDGE_MCP_TOKEN is set but empty/);
    expect(() => chosenToken('sixteen chars ok', 'T')).toThrow(/T has the character U\+0020/);
    expect(tokenFromEnv({}, 'SKILLBRIDGE_MCP_TOKEN')).toBeUndefined();
    expect(serverToken(undefined)).toHaveLength(43);
    expect(() => serverToken('short' as never, '--token')).toThrow(TokenError);
  });

  it('accepts exactly the tokens of 16-256 URL-safe characters (property)', () => {
    const char = fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...'abcXYZ019._~-') },
      { weight: 1, arbitrary: fc.constantFrom(' ', '/', '?', '&', '#', '%', '"', '\n', '\u0000', 'é', '😀', '+', '=') },
    );
    const token = fc.oneof(
      fc.string({ unit: char, minLength: 0, maxLength: 300 }),
      fc.string({ unit: char, minLength: MIN_CHOSEN_CHARS - 2, maxLength: MIN_CHOSEN_CHARS + 2 }),
      fc.string({ unit: char, minLength: MAX_CHOSEN_CHARS - 2, maxLength: MAX_CHOSEN_CHARS + 2 }),
    );
    fc.assert(
      fc.property(token, (t) => {
        const ok = t.length >= MIN_CHOSEN_CHARS && t.length <= MAX_CHOSEN_CHARS && SAFE.test(t);
        let refusal: Error | undefined;
        try {
          expect(chosenToken(t, 'SKILLBRIDGE_X_TOKEN')).toBe(t);
        } catch (e) {
          refusal = e as Error;
        }
        expect(refusal === undefined).toBe(ok);
        if (refusal) {
          expect(refusal).toBeInstanceOf(TokenError);
          expect(refusal.message).toMatch(/^SKILLBRIDGE_X_TOKEN /);
          expect(refusal.message).toMatch(/or unset it for a random token\)$/);
          expect(refusal.message).not.toMatch(/\n/);
        }
      }),
      { seed: 34, numRuns: 2000 },
    );
  });

  it('a guess opens only when it is the token (property)', () => {
    const token = generateToken();
    expect(sameToken(token, token)).toBe(true);
    expect(sameToken(`${token}`, token)).toBe(true);
    for (const wrong of [undefined, null, 0, '', token.slice(1), `${token}x`, token.toUpperCase(), [token]])
      expect(sameToken(wrong, token)).toBe(false);
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (guess) => {
        expect(sameToken(guess, token)).toBe(guess === token);
      }),
      { seed: 34, numRuns: 1000 },
    );
  });
});
