// What a user who mistypes an option reads: one line naming the option and the fix.
import { describe, expect, it } from 'vitest';
import { UsageError, parse } from './args';

function usage(argv: string[]): string {
  try {
    parse(argv);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
  throw new Error(`parse accepted ${argv.join(' ')}`);
}

describe('option parsing errors', () => {
  it('names an unknown option in one line', () => {
    const m = usage(['call', '--bogus']);
    expect(m).toBe('unknown option --bogus. Run "skillbridge help" for the options.');
  });

  it('says how to give a value that starts with a dash, in one line', () => {
    const m = usage(['foxglove', '--port', '-3']);
    expect(m).toMatch(/^--port got a value that starts with "-"; write --port=VALUE/);
    expect(m).not.toContain('\n');
  });

  it('keeps a flag given without its value to one line', () => {
    const m = usage(['call', '--scene']);
    expect(m).toMatch(/--scene/);
    expect(m).not.toContain('\n');
  });
});
