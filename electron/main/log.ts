// The desktop app's log file (userData/logs/main.log): one timestamped line per
// event, so a user can send it with a bug report.
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';

const MAX_BYTES = 5 * 1024 * 1024;

export function openLog(dir: string): (line: string) => void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'main.log');
  try {
    // One previous file is kept; the log never grows without bound.
    if (statSync(file).size > MAX_BYTES) renameSync(file, `${file}.1`);
  } catch {
    // No log yet.
  }
  return (line: string) => {
    const text = `${new Date().toISOString()} ${line}\n`;
    try {
      appendFileSync(file, text);
    } catch {
      // Logging must never take the app down.
    }
    if (!process.env['SKILLBRIDGE_QUIET']) process.stderr.write(text);
  };
}
