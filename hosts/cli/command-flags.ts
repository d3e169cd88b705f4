// The parser knows every option of every command; a command that is given one it
// does not use refuses it in one line, so no option is accepted and then ignored.
import { type Parsed, UsageError } from './args';

/** Throws a UsageError naming the first flag `p` carries that `command` does not use. */
export function onlyFlags(p: Parsed, command: string, used: readonly string[], hint = ''): void {
  const allowed = new Set([...used, 'json', 'help', 'version']);
  const extra = Object.keys(p.flags).filter((k) => p.flags[k] !== undefined && !allowed.has(k));
  if (extra.length)
    throw new UsageError(
      `${command} does not use --${extra[0]}${
        extra.length > 1
          ? ` (nor ${extra
              .slice(1)
              .map((k) => `--${k}`)
              .join(', ')})`
          : ''
      }; its options: ${used.map((k) => `--${k}`).join(', ')}${hint ? `. ${hint}` : ''}`,
    );
}
