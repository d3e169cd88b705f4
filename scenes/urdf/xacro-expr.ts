// The `${…}` expressions of xacro: Python-like arithmetic, comparisons, `and`/
// `or`/`not`, `a if c else b`, strings, `pi` and the math functions robot
// descriptions use. Names are looked up in the caller's scope; an unknown name,
// a division by zero or a result that is not finite is an ExprError naming it.

export type Value = number | string | boolean;
export type Lookup = (name: string) => Value | undefined;

export class ExprError extends Error {
  override name = 'ExprError';
}

const FUNCS: Record<string, (...a: number[]) => number> = {
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  atan2: Math.atan2,
  sqrt: Math.sqrt,
  abs: Math.abs,
  fabs: Math.abs,
  floor: Math.floor,
  ceil: Math.ceil,
  exp: Math.exp,
  log: Math.log,
  pow: Math.pow,
  min: Math.min,
  max: Math.max,
  radians: (d) => (d * Math.PI) / 180,
  degrees: (r) => (r * 180) / Math.PI,
  float: (x) => x,
  int: Math.trunc,
};
const CONSTS: Record<string, Value> = { pi: Math.PI, e: Math.E, True: true, False: false, true: true, false: false };

type Tok = { t: 'num'; v: number } | { t: 'str'; v: string } | { t: 'id'; v: string } | { t: 'op'; v: string };
const TOKEN =
  /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|'([^']*)'|"([^"]*)"|([A-Za-z_][\w.]*)|(\*\*|\/\/|==|!=|<=|>=|[-+*/%()<>,]))/y;

function tokens(src: string): Tok[] {
  const out: Tok[] = [];
  TOKEN.lastIndex = 0;
  let at = 0;
  while (at < src.length) {
    if (/^\s*$/.test(src.slice(at))) break;
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(src);
    if (!m) throw new ExprError(`cannot read "${src.slice(at, at + 20)}" in \${${src}}`);
    at = TOKEN.lastIndex;
    if (m[1] !== undefined) out.push({ t: 'num', v: Number(m[1]) });
    else if (m[2] !== undefined || m[3] !== undefined) out.push({ t: 'str', v: m[2] ?? m[3]! });
    else if (m[4] !== undefined) out.push({ t: 'id', v: m[4].replace(/^math\./, '') });
    else out.push({ t: 'op', v: m[5]! });
  }
  return out;
}

const num = (v: Value, what: string): number => {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new ExprError(`${what}: "${v}" is not a number`);
  return n;
};
const truthy = (v: Value): boolean => (typeof v === 'string' ? v !== '' && v !== 'false' && v !== 'False' : Boolean(v));

/** Evaluates one expression (the text between `${` and `}`). */
export function evaluate(src: string, lookup: Lookup): Value {
  const toks = tokens(src);
  let k = 0;
  const peek = (v: string): boolean => {
    const t = toks[k];
    return t !== undefined && (t.t === 'op' || t.t === 'id') && t.v === v;
  };
  const take = (v: string): void => {
    if (!peek(v)) throw new ExprError(`expected "${v}" in \${${src}}`);
    k++;
  };
  const cond = (): Value => {
    const a = or();
    if (!peek('if')) return a;
    k++;
    const c = or();
    take('else');
    const b = cond();
    return truthy(c) ? a : b;
  };
  const or = (): Value => {
    let a = and();
    while (peek('or')) {
      k++;
      const b = and();
      a = truthy(a) ? a : b;
    }
    return a;
  };
  const and = (): Value => {
    let a = not();
    while (peek('and')) {
      k++;
      const b = not();
      a = truthy(a) ? b : a;
    }
    return a;
  };
  const not = (): Value => {
    if (peek('not')) {
      k++;
      return !truthy(not());
    }
    return compare();
  };
  const compare = (): Value => {
    const a = sum();
    const t = toks[k];
    if (t?.t !== 'op' || !['==', '!=', '<', '<=', '>', '>='].includes(t.v)) return a;
    k++;
    const b = sum();
    if (t.v === '==' || t.v === '!=') {
      const same = typeof a === 'string' || typeof b === 'string' ? String(a) === String(b) : num(a, t.v) === num(b, t.v);
      return t.v === '==' ? same : !same;
    }
    const [x, y] = [num(a, t.v), num(b, t.v)];
    return t.v === '<' ? x < y : t.v === '<=' ? x <= y : t.v === '>' ? x > y : x >= y;
  };
  const sum = (): Value => {
    let a = product();
    for (let t = toks[k]; t?.t === 'op' && (t.v === '+' || t.v === '-'); t = toks[k]) {
      k++;
      const b = product();
      a =
        t.v === '+' && typeof a === 'string' && typeof b === 'string'
          ? a + b
          : t.v === '+'
            ? num(a, '+') + num(b, '+')
            : num(a, '-') - num(b, '-');
    }
    return a;
  };
  const product = (): Value => {
    let a = unary();
    for (let t = toks[k]; t?.t === 'op' && ['*', '/', '//', '%'].includes(t.v); t = toks[k]) {
      k++;
      const [x, y] = [num(a, t.v), num(unary(), t.v)];
      if (t.v !== '*' && y === 0) throw new ExprError(`division by zero in \${${src}}`);
      a = t.v === '*' ? x * y : t.v === '/' ? x / y : t.v === '//' ? Math.floor(x / y) : x - y * Math.floor(x / y);
    }
    return a;
  };
  const unary = (): Value => {
    if (peek('-')) {
      k++;
      return -num(unary(), '-');
    }
    if (peek('+')) {
      k++;
      return num(unary(), '+');
    }
    return power();
  };
  const power = (): Value => {
    const a = atom();
    if (!peek('**')) return a;
    k++;
    return num(a, '**') ** num(unary(), '**');
  };
  const atom = (): Value => {
    const t = toks[k++];
    if (t === undefined) throw new ExprError(`\${${src}} ends early`);
    if (t.t === 'num' || t.t === 'str') return t.v;
    if (t.t === 'op') {
      if (t.v !== '(') throw new ExprError(`unexpected "${t.v}" in \${${src}}`);
      const v = cond();
      take(')');
      return v;
    }
    if (peek('(')) {
      const f = Object.hasOwn(FUNCS, t.v) ? FUNCS[t.v] : undefined;
      if (!f) throw new ExprError(`unknown function "${t.v}" in \${${src}}`);
      k++;
      const args: number[] = [];
      if (!peek(')'))
        for (;;) {
          args.push(num(cond(), t.v));
          if (!peek(',')) break;
          k++;
        }
      take(')');
      return f(...args);
    }
    const v = lookup(t.v) ?? (Object.hasOwn(CONSTS, t.v) ? CONSTS[t.v] : undefined);
    if (v === undefined) throw new ExprError(`unknown property "${t.v}" in \${${src}}`);
    return v;
  };
  const v = cond();
  if (k < toks.length) throw new ExprError(`unexpected "${String(toks[k]!.v)}" in \${${src}}`);
  if (typeof v === 'number' && !Number.isFinite(v)) throw new ExprError(`\${${src}} is not a finite number`);
  return v;
}

/** A value as xacro writes it into the document. */
export function show(v: Value): string {
  return typeof v === 'boolean' ? (v ? 'true' : 'false') : String(v);
}
