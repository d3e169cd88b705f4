// A small XML reader for robot descriptions: elements, attributes, text,
// comments, CDATA, processing instructions and a DOCTYPE (skipped). No
// dependency of the product parses XML, and URDF and xacro use nothing more;
// entities are the five predefined ones and character references. A malformed
// document is an XmlError naming the line, never a partial tree.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  line: number;
}
export type XmlNode = XmlElement | { text: string };

export class XmlError extends Error {
  override name = 'XmlError';
}

/** Deeper nesting than any robot description needs: refused instead of overflowing the stack. */
const MAX_DEPTH = 200;
const NAME = /[A-Za-z_:][\w:.-]*/y;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function isElement(n: XmlNode): n is XmlElement {
  return 'name' in n;
}

/** The child elements of `e`, optionally only those named `name`. */
export function elements(e: XmlElement, name?: string): XmlElement[] {
  return e.children.filter((c): c is XmlElement => isElement(c) && (name === undefined || c.name === name));
}

function decode(raw: string, line: () => number): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|\w+);|&/g, (m, ref: string | undefined) => {
    if (ref === undefined) throw new XmlError(`line ${line()}: a bare "&" (write &amp;)`);
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!(code > 0 && code <= 0x10ffff)) throw new XmlError(`line ${line()}: "${m}" is not a character`);
      return String.fromCodePoint(code);
    }
    const v = ENTITIES[ref];
    if (v === undefined) throw new XmlError(`line ${line()}: unknown entity "${m}"`);
    return v;
  });
}

/** Parses a document; its one root element. */
export function parseXml(src: string): XmlElement {
  let i = 0;
  // Lines are counted forward from the last position asked (the reader only moves forward).
  let seenAt = 0;
  let seenLine = 1;
  const lineAt = (at: number): number => {
    if (at < seenAt) {
      seenAt = 0;
      seenLine = 1;
    }
    for (; seenAt < at && seenAt < src.length; seenAt++) if (src.charCodeAt(seenAt) === 10) seenLine++;
    return seenLine;
  };
  const fail = (why: string): never => {
    throw new XmlError(`line ${lineAt(i)}: ${why}`);
  };
  const skipTo = (end: string, what: string): void => {
    const j = src.indexOf(end, i);
    if (j < 0) fail(`${what} is not closed ("${end}" missing)`);
    i = j + end.length;
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const m = NAME.exec(src);
    if (!m) return fail(`expected a name at ${JSON.stringify(src.slice(i, i + 12))}`);
    i += m[0].length;
    return m[0];
  };
  const space = (): void => {
    while (i < src.length && /\s/.test(src[i]!)) i++;
  };
  /** Skips what may stand between elements (outside the root): comments, PIs, a DOCTYPE, white space. */
  const misc = (): void => {
    for (;;) {
      space();
      if (src.startsWith('<!--', i)) skipTo('-->', 'a comment');
      else if (src.startsWith('<?', i)) skipTo('?>', 'a processing instruction');
      else if (src.startsWith('<!DOCTYPE', i)) skipTo('>', 'a DOCTYPE');
      else return;
    }
  };
  const element = (depth: number): XmlElement => {
    if (depth > MAX_DEPTH) fail(`elements nested more than ${MAX_DEPTH} deep`);
    const line = lineAt(i);
    i++; // '<'
    const tag = name();
    const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
    for (;;) {
      space();
      if (src.startsWith('/>', i)) {
        i += 2;
        return { name: tag, attrs, children: [], line };
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      if (i >= src.length) fail(`<${tag}> is not closed`);
      const key = name();
      space();
      if (src[i] !== '=') fail(`attribute "${key}" of <${tag}> has no value`);
      i++;
      space();
      const q = src[i];
      if (q !== '"' && q !== "'") fail(`attribute "${key}" of <${tag}> is not quoted`);
      const end = src.indexOf(q!, i + 1);
      if (end < 0) fail(`attribute "${key}" of <${tag}> is not closed`);
      const raw = src.slice(i + 1, end);
      if (raw.includes('<')) fail(`attribute "${key}" of <${tag}> holds "<"`);
      if (Object.hasOwn(attrs, key)) fail(`attribute "${key}" is given twice on <${tag}>`);
      attrs[key] = decode(raw, () => lineAt(i));
      i = end + 1;
    }
    const children: XmlNode[] = [];
    for (;;) {
      if (i >= src.length) fail(`<${tag}> (line ${line}) is not closed`);
      if (src.startsWith('</', i)) {
        i += 2;
        const closing = name();
        if (closing !== tag) fail(`</${closing}> closes <${tag}> (line ${line})`);
        space();
        if (src[i] !== '>') fail(`</${closing}> is not closed`);
        i++;
        return { name: tag, attrs, children, line };
      }
      if (src.startsWith('<!--', i)) skipTo('-->', 'a comment');
      else if (src.startsWith('<![CDATA[', i)) {
        const start = i + 9;
        skipTo(']]>', 'a CDATA section');
        children.push({ text: src.slice(start, i - 3) });
      } else if (src.startsWith('<?', i)) skipTo('?>', 'a processing instruction');
      else if (src[i] === '<') children.push(element(depth + 1));
      else {
        const next = src.indexOf('<', i);
        const end = next < 0 ? src.length : next;
        const at = i;
        children.push({ text: decode(src.slice(i, end), () => lineAt(at)) });
        i = end;
      }
    }
  };
  misc();
  if (src[i] !== '<') fail('the document has no root element');
  const root = element(0);
  misc();
  if (i < src.length) fail('text after the root element');
  return root;
}
