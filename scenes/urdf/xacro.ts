// The xacro subset robot descriptions are written in, expanded to plain URDF:
// properties (values and blocks), `xacro:arg` with `$(arg NAME)`, macros with
// parameters (defaults `p:=v`, blocks `*p` and `**p`), `${…}` expressions,
// `xacro:if`/`xacro:unless`, `xacro:insert_block`, and `xacro:include` of a file
// the loader allows (`$(find PKG)` names a package folder the person gave). Anything
// else of xacro is a XacroError naming the element and line, never ignored.
import { ExprError, type Value, evaluate, show } from './xacro-expr';
import { type XmlElement, type XmlNode, isElement } from './xml';

export class XacroError extends Error {
  override name = 'XacroError';
  constructor(
    readonly element: string,
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

export interface XacroHost {
  /** The root element of an included file, named as written (after substitution), relative to `from`. */
  include(filename: string, from: string): { root: XmlElement; file: string };
  /** The folder of a ROS package the person named, for `$(find PKG)`. */
  findPackage(pkg: string): string | undefined;
  /** Values of `xacro:arg`s given by the caller. */
  args?: Readonly<Record<string, string>>;
}

interface Macro {
  /** `fallback`: the default after `:=`; `inherit`: `:=^` or `:=^|v` takes the caller's property of that name first. */
  params: Array<{ name: string; block: 0 | 1 | 2; fallback: string | undefined; inherit: boolean }>;
  body: XmlNode[];
}
interface Scope {
  parent: Scope | undefined;
  props: Map<string, string>;
  blocks: Map<string, XmlNode[]>;
  macros: Map<string, Macro>;
}

const MAX_CALL_DEPTH = 64;
const MAX_INCLUDE_DEPTH = 16;
const MAX_NODES = 200_000;

function lookupIn<T>(s: Scope | undefined, pick: (s: Scope) => Map<string, T>, name: string): T | undefined {
  for (let at = s; at; at = at.parent) {
    const v = pick(at).get(name);
    if (v !== undefined) return v;
  }
  return undefined;
}

const child = (parent: Scope): Scope => ({ parent, props: new Map(), blocks: new Map(), macros: new Map() });

/** Whether an element uses xacro: the descriptions that need expanding before they are URDF. */
export function usesXacro(root: XmlElement): boolean {
  const walk = (e: XmlElement): boolean =>
    e.name.startsWith('xacro:') ||
    Object.values(e.attrs).some((v) => v.includes('${') || v.includes('$(')) ||
    e.children.some((c) => (isElement(c) ? walk(c) : c.text.includes('${')));
  return walk(root);
}

/** Expands a xacro document read from `file` into a plain URDF root element. */
export function expandXacro(root: XmlElement, file: string, host: XacroHost): XmlElement {
  const args = new Map(Object.entries(host.args ?? {}));
  let nodes = 0;
  const where = (e: XmlElement, f: string) => `<${e.name}${e.attrs['name'] ? ` name="${e.attrs['name']}"` : ''}> (${f}:${e.line})`;

  const subst = (text: string, scope: Scope, at: string): string => {
    const withArgs = text.replace(/\$\((\w+)\s+([^)]*)\)/g, (_m, fn: string, arg: string) => {
      const name = arg.trim();
      if (fn === 'arg') {
        const v = args.get(name);
        if (v === undefined) throw new XacroError(at, `$(arg ${name}) has no value`, `declare <xacro:arg name="${name}" default="…"/>`);
        return v;
      }
      if (fn === 'find') {
        const dir = host.findPackage(name);
        if (dir === undefined)
          throw new XacroError(
            at,
            `$(find ${name}): no package folder named "${name}" was given`,
            `name the package's folder with --package-dir`,
          );
        return dir;
      }
      throw new XacroError(at, `$(${fn} …) is not supported`, 'use $(arg NAME) or $(find PKG), or write the value');
    });
    if (!withArgs.includes('${')) return withArgs.replace(/\$\$\{/g, '${');
    return withArgs.replace(/\$\$\{|\$\{([^}]*)\}/g, (m, expr: string | undefined) => {
      if (expr === undefined) return '${';
      try {
        return show(evaluate(expr, (name) => propValue(name, scope, at)));
      } catch (e) {
        if (e instanceof ExprError) throw new XacroError(at, e.message, 'define the property, or correct the expression');
        throw e;
      }
    });
  };
  const propValue = (name: string, scope: Scope, at: string): Value | undefined => {
    const raw = lookupIn(scope, (s) => s.props, name);
    if (raw === undefined) return undefined;
    // Values were substituted where they were defined; a numeric one is a number, as in xacro.
    const n = Number(raw);
    return raw.trim() !== '' && Number.isFinite(n) ? n : raw;
  };
  const required = (e: XmlElement, attr: string, f: string): string => {
    const v = e.attrs[attr];
    if (v === undefined) throw new XacroError(where(e, f), `<${e.name}> has no "${attr}"`, `add ${attr}="…"`);
    return v;
  };

  const expandAll = (list: XmlNode[], scope: Scope, f: string, depth: number, includes: number): XmlNode[] =>
    list.flatMap((n) => expandNode(n, scope, f, depth, includes));

  const expandNode = (n: XmlNode, scope: Scope, f: string, depth: number, includes: number): XmlNode[] => {
    if (++nodes > MAX_NODES) throw new XacroError(file, `the expansion passes ${MAX_NODES} nodes`, 'check for a macro that calls itself');
    if (!isElement(n)) return [{ text: subst(n.text, scope, f) }];
    const at = where(n, f);
    if (!n.name.startsWith('xacro:')) {
      const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [k, v] of Object.entries(n.attrs)) if (!k.startsWith('xmlns')) attrs[k] = subst(v, scope, at);
      return [{ name: n.name, attrs, line: n.line, children: expandAll(n.children, scope, f, depth, includes) }];
    }
    const kind = n.name.slice(6);
    switch (kind) {
      case 'property': {
        const name = required(n, 'name', f);
        if (n.attrs['value'] === undefined && n.attrs['default'] === undefined) {
          scope.blocks.set(name, expandAll(n.children, scope, f, depth, includes));
          return [];
        }
        if (n.attrs['value'] !== undefined) scope.props.set(name, subst(n.attrs['value'], scope, at));
        else if (lookupIn(scope, (s) => s.props, name) === undefined) scope.props.set(name, subst(n.attrs['default']!, scope, at));
        return [];
      }
      case 'arg': {
        const name = required(n, 'name', f);
        if (!args.has(name) && n.attrs['default'] !== undefined) args.set(name, subst(n.attrs['default'], scope, at));
        return [];
      }
      case 'macro': {
        const name = required(n, 'name', f);
        // Split at white space outside `${…}` (a default may be an expression with spaces).
        const params = ((n.attrs['params'] ?? '').match(/(?:[^\s$]|\$(?!\{)|\$\{[^}]*\})+/g) ?? []).map((p) => {
          const block = p.startsWith('**') ? 2 : p.startsWith('*') ? 1 : 0;
          const [key = '', fallback] = p.replace(/^\*+/, '').split(':=', 2) as [string, string | undefined];
          const inherit = fallback?.startsWith('^') ?? false;
          const rest = inherit ? fallback!.slice(1).replace(/^\|/, '') : fallback;
          return { name: key, block, fallback: inherit && rest === '' ? undefined : rest, inherit } as const;
        });
        scope.macros.set(name, { params, body: n.children });
        return [];
      }
      case 'include': {
        if (includes >= MAX_INCLUDE_DEPTH)
          throw new XacroError(at, `includes nested more than ${MAX_INCLUDE_DEPTH} deep`, 'check for a file that includes itself');
        const got = host.include(subst(required(n, 'filename', f), scope, at), f);
        return expandAll(got.root.children, scope, got.file, depth, includes + 1);
      }
      case 'if':
      case 'unless': {
        const v = subst(required(n, 'value', f), scope, at).trim();
        if (!['true', 'false', '1', '0', 'True', 'False'].includes(v))
          throw new XacroError(at, `value="${v}" is not a boolean`, 'give true, false, 1 or 0 (or an expression giving one)');
        const yes = v === 'true' || v === '1' || v === 'True';
        return yes === (kind === 'if') ? expandAll(n.children, scope, f, depth, includes) : [];
      }
      case 'insert_block': {
        const name = required(n, 'name', f);
        const block = lookupIn(scope, (s) => s.blocks, name);
        if (!block) throw new XacroError(at, `no block "${name}"`, `pass it as a *${name} parameter or define it as a block property`);
        return block;
      }
      default:
        return call(n, kind === 'call' ? required(n, 'macro', f) : kind, scope, f, depth, includes);
    }
  };

  const call = (n: XmlElement, name: string, scope: Scope, f: string, depth: number, includes: number): XmlNode[] => {
    const at = where(n, f);
    const macro = lookupIn(scope, (s) => s.macros, name);
    if (!macro)
      throw new XacroError(
        at,
        ['element', 'attribute', 'eval-comments', 'loop'].includes(name) ? `xacro:${name} is not supported` : `no macro "${name}"`,
        'define the macro before it is used (or include its file)',
      );
    if (depth >= MAX_CALL_DEPTH)
      throw new XacroError(at, `macros nested more than ${MAX_CALL_DEPTH} deep`, 'check for a macro that calls itself');
    const inner = child(scope);
    const blocks = n.children.filter(isElement);
    let b = 0;
    for (const p of macro.params) {
      if (p.block) {
        const given = blocks[b++];
        if (!given) throw new XacroError(at, `block parameter *${p.name} is not given`, `add an element inside the call for ${p.name}`);
        inner.blocks.set(p.name, expandAll(p.block === 1 ? [given] : given.children, scope, f, depth, includes));
        continue;
      }
      const v = n.attrs[p.name];
      const inherited = p.inherit ? lookupIn(scope, (s) => s.props, p.name) : undefined;
      if (v !== undefined) inner.props.set(p.name, subst(v, scope, at));
      else if (inherited !== undefined) inner.props.set(p.name, inherited);
      else if (p.fallback !== undefined) inner.props.set(p.name, subst(p.fallback, scope, at));
      else throw new XacroError(at, `parameter "${p.name}" of macro "${name}" is not given`, `add ${p.name}="…"`);
    }
    const known = new Set(macro.params.map((p) => p.name));
    const extra = Object.keys(n.attrs).find((k) => !known.has(k) && !(name === n.attrs['macro'] && k === 'macro'));
    if (extra !== undefined)
      throw new XacroError(at, `macro "${name}" has no parameter "${extra}"`, `its parameters: ${[...known].join(', ') || 'none'}`);
    return expandAll(macro.body, inner, f, depth + 1, includes);
  };

  const top: Scope = { parent: undefined, props: new Map(), blocks: new Map(), macros: new Map() };
  const attrs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of Object.entries(root.attrs)) if (!k.startsWith('xmlns')) attrs[k] = v;
  const children = expandAll(root.children, top, file, 0, 0);
  return {
    name: root.name,
    attrs: Object.assign(attrs, root.attrs['name'] ? { name: subst(root.attrs['name'], top, file) } : {}),
    line: root.line,
    children,
  };
}
