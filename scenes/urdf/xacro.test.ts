// The xacro subset: what each construct expands to, what is refused (naming the
// element), and generated arithmetic checked against JavaScript's.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, fuzzSeed } from '../../test/fuzz/support/budget';
import { XacroError, expandXacro } from './xacro';
import { ExprError, evaluate } from './xacro-expr';
import { type XmlElement, elements, parseXml } from './xml';

const NS = 'xmlns:xacro="http://www.ros.org/wiki/xacro"';
const files: Record<string, string> = {};
const expand = (body: string, args: Record<string, string> = {}): XmlElement =>
  expandXacro(parseXml(`<robot name="r" ${NS}>${body}</robot>`), '/pkg/urdf/r.xacro', {
    args,
    findPackage: (pkg) => (pkg === 'pkg' ? '/pkg' : undefined),
    include: (name, from) => {
      const file = name.startsWith('/') ? name : `${from.replace(/[^/]*$/, '')}${name}`;
      const text = files[file];
      if (text === undefined) throw new XacroError(`xacro:include "${name}"`, `${file}: no such file`, 'give a file that exists');
      return { root: parseXml(text), file };
    },
  });
const attrs = (e: XmlElement, name: string) => elements(e, name).map((c) => c.attrs);

describe('xacro', () => {
  it('properties, expressions and $(arg)', () => {
    const r = expand(
      `<xacro:arg name="len" default="0.5"/><xacro:property name="half" value="\${$(arg len) / 2}"/>
       <link name="l_\${half}"/><link name="\${'a' + 'b'}"/><link name="\${2 ** 3 if half &gt; 0.2 else -1}"/><link name="$\${x}"/>`,
    );
    expect(attrs(r, 'link').map((a) => a['name'])).toEqual(['l_0.25', 'ab', '8', '${x}']);
    expect(attrs(expand(`<xacro:arg name="len" default="1"/><link name="$(arg len)"/>`, { len: '3' }), 'link')).toEqual([{ name: '3' }]);
  });

  it('macros: parameters with defaults, inherited ones, blocks and nested calls', () => {
    const r = expand(`
      <xacro:property name="w" value="7"/>
      <xacro:macro name="part" params="name size:=\${w * 2} w:=^ *origin **inside">
        <link name="\${name}" size="\${size}" w="\${w}"><xacro:insert_block name="origin"/><xacro:insert_block name="inside"/></link>
      </xacro:macro>
      <xacro:macro name="two" params="p"><xacro:part name="\${p}1"><origin xyz="1 0 0"/><x><a/><b/></x></xacro:part>
        <xacro:call macro="part" name="\${p}2" size="1"><origin/><x/></xacro:call></xacro:macro>
      <xacro:two p="q"/>`);
    const links = elements(r, 'link');
    expect(links.map((l) => l.attrs)).toEqual([
      { name: 'q1', size: '14', w: '7' },
      { name: 'q2', size: '1', w: '7' },
    ]);
    expect(elements(links[0]!).map((c) => c.name)).toEqual(['origin', 'a', 'b']);
  });

  it('if/unless and include of a file beside it, or in a package by $(find)', () => {
    files['/pkg/urdf/inc.xacro'] = `<robot ${NS}><xacro:property name="v" value="3"/><link name="inc"/></robot>`;
    const r = expand(
      `<xacro:include filename="inc.xacro"/><xacro:include filename="$(find pkg)/urdf/inc.xacro"/>
       <xacro:if value="\${v == 3}"><link name="yes"/></xacro:if><xacro:unless value="true"><link name="no"/></xacro:unless>`,
    );
    expect(attrs(r, 'link').map((a) => a['name'])).toEqual(['inc', 'inc', 'yes']);
  });

  const refusals: Array<[string, RegExp]> = [
    ['<link name="${nope}"/>', /unknown property "nope"/],
    ['<xacro:nope/>', /no macro "nope"/],
    ['<xacro:macro name="m" params="a"/><xacro:m/>', /parameter "a" of macro "m" is not given/],
    ['<xacro:macro name="m" params=""/><xacro:m b="1"/>', /macro "m" has no parameter "b"/],
    ['<xacro:macro name="m" params=""><xacro:m/></xacro:macro><xacro:m/>', /macros nested more than 64 deep/],
    ['<xacro:if value="maybe"/>', /value="maybe" is not a boolean/],
    ['<xacro:include filename="gone.xacro"/>', /no such file/],
    ['<xacro:include filename="$(find other)/x.xacro"/>', /\$\(find other\): no package folder/],
    ['<link name="${1/0}"/>', /division by zero/],
    ['<link name="$(env HOME)"/>', /\$\(env …\) is not supported/],
    ['<xacro:element xacro:name="x"/>', /xacro:element is not supported/],
  ];
  it.each(refusals)('refuses %s naming the element', (body, why) => {
    let err: unknown;
    try {
      expand(body);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(XacroError);
    expect((err as XacroError).message).toMatch(why);
    expect((err as XacroError).element.length).toBeGreaterThan(0);
  });

  it('an include of itself ends at the nesting bound', () => {
    files['/pkg/urdf/self.xacro'] = `<robot ${NS}><xacro:include filename="self.xacro"/></robot>`;
    expect(() => expand('<xacro:include filename="self.xacro"/>')).toThrow(/includes nested more than 16 deep/);
  });
});

describe('xacro expressions, generated', () => {
  type E = { src: string; js: number };
  const leaf = fc.integer({ min: -50, max: 50 }).map((n): E => ({ src: n < 0 ? `(${n})` : String(n), js: n }));
  const expr: fc.Arbitrary<E> = fc.letrec<{ e: E }>((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc
        .tuple(tie('e'), fc.constantFrom('+', '-', '*'), tie('e'))
        .map(([a, op, b]) => ({ src: `(${a.src} ${op} ${b.src})`, js: op === '+' ? a.js + b.js : op === '-' ? a.js - b.js : a.js * b.js })),
      tie('e').map((a) => ({ src: `abs(${a.src})`, js: Math.abs(a.js) })),
      tie('e').map((a) => ({ src: `-${a.src}`, js: -a.js })),
    ),
  })).e;

  it('evaluates as JavaScript does, and only ExprError escapes on garbage', () => {
    fc.assert(
      fc.property(expr, ({ src, js }) => {
        const v = evaluate(src, () => undefined);
        expect(v === 0 ? 0 : v).toBe(js === 0 ? 0 : js);
      }),
      { numRuns: fuzzRuns(300), seed: fuzzSeed(39) },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        try {
          evaluate(s, () => undefined);
        } catch (e) {
          expect(e).toBeInstanceOf(ExprError);
        }
      }),
      { numRuns: fuzzRuns(500), seed: fuzzSeed(39) },
    );
  });
});
