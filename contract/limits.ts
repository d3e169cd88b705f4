// Size limits of what crosses between a page and a host, in bytes of UTF-8 as
// they travel. Both sides check them: the client before it sends (a clear error
// instead of a dropped connection), the host on arrival.

/** One message from a page to the host (the web-mode socket's max payload). */
export const MAX_REQUEST_BYTES = 1024 * 1024;
/** One message from the host to a page (replies such as an exported trace). */
export const MAX_REPLY_BYTES = 8 * 1024 * 1024;
/** A trace imported for replay: it travels in one request, with room for the envelope. */
export const MAX_TRACE_IMPORT_BYTES = 900_000;
/** An uploaded script for a scripted model. */
export const MAX_SCRIPT_BYTES = 256 * 1024;
/** Positions given from outside (event injection), metres from the world origin. */
export const MAX_COORDINATE_M = 1000;

/** UTF-8 length of a string, without encoding it. */
export function utf8Bytes(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** "1.4 MB", "900 kB": sizes as people read them in messages. */
export function formatBytes(n: number): string {
  if (n >= 1024 * 1024) return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  if (n >= 1024) return `${Math.round(n / 1024)} KiB`;
  return `${n} bytes`;
}
