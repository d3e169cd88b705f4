// Values that may hold anything (tool results, sandbox returns) made safe for
// JSON: what survives a round trip is kept, the rest becomes its string form,
// so a trace line or an IPC message stays writable.
export function jsonSafe(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}
