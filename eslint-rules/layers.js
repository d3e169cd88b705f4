// Enforces the layer direction of docs/architecture.md: imports point down only.
// A file's layer is the folder it lives in; a relative import is resolved to the
// layer of its target, a package import is checked against the packages the layer
// may use. Colocated tests (*.test.ts) may also import from test/.
import path from 'node:path';

/** Layers, most specific prefix first. `may` lists the layers a layer may import. */
export const LAYERS = [
  { name: 'renderer', prefix: 'renderer/', may: ['renderer', 'contract'] },
  // The AppApi contract is a leaf: the renderer, Electron and every host import it.
  { name: 'contract', prefix: 'contract/', may: ['contract'] },
  { name: 'electron/preload', prefix: 'electron/preload/', may: ['electron/preload', 'contract'] },
  {
    name: 'electron/main',
    prefix: 'electron/',
    may: ['electron/main', 'contract', 'hosts', 'agents', 'robot', 'robot/sources', 'robot/sim', 'sim', 'scenes'],
  },
  // Benchmarks drive the app against the same local fakes the tests use (a model server on 127.0.0.1).
  {
    name: 'hosts/bench',
    prefix: 'hosts/bench/',
    may: ['hosts', 'hosts/bench', 'contract', 'agents', 'robot', 'robot/sources', 'robot/sim', 'sim', 'scenes', 'test'],
  },
  {
    name: 'hosts',
    prefix: 'hosts/',
    may: ['hosts', 'hosts/bench', 'contract', 'agents', 'robot', 'robot/sources', 'robot/sim', 'sim', 'scenes'],
  },
  // Their tests may build a simulated robot to run against.
  { name: 'agents', prefix: 'agents/', may: ['agents', 'robot', 'scenes'], testMay: ['robot/sim', 'robot/sources'] },
  // Only the simulated robot may touch the simulator; tools and workflows see the Robot seam.
  { name: 'robot/sim', prefix: 'robot/sim/', may: ['robot/sim', 'robot', 'sim', 'scenes'] },
  // The list of robot sources may open each kind; the seam itself knows none of them.
  { name: 'robot/sources', prefix: 'robot/sources', may: ['robot/sources', 'robot/sim', 'robot', 'scenes'] },
  { name: 'robot', prefix: 'robot/', may: ['robot'] },
  { name: 'sim', prefix: 'sim/', may: ['sim', 'scenes'] },
  { name: 'scenes', prefix: 'scenes/', may: ['scenes'] },
  { name: 'test', prefix: 'test/', may: '*' },
  { name: 'build', prefix: 'build/', may: '*' },
  { name: 'bin', prefix: 'bin/', may: '*' },
  { name: 'eslint-rules', prefix: 'eslint-rules/', may: '*' },
];

/** Packages that belong to one part of the tree only. */
export const PACKAGE_OWNERS = [
  { pkg: /^electron$/, layers: ['electron/main', 'electron/preload', 'test', 'build'] },
  { pkg: /^(react|react-dom)(\/|$)|^@babylonjs\//, layers: ['renderer', 'test'] },
  { pkg: /^@dimforge\//, layers: ['sim', 'test'] },
  { pkg: /^openai(\/|$)/, layers: ['agents', 'test'] },
];

export function layerOf(relPath) {
  const p = relPath.split(path.sep).join('/');
  for (const layer of LAYERS) if (p.startsWith(layer.prefix)) return layer;
  return undefined;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Imports must point down the layers of docs/architecture.md' },
    schema: [],
    messages: {
      upward:
        "'{{from}}' may not import from '{{to}}' ({{spec}}). Layers point down: {{from}} may import {{allowed}}. Move the shared code down, or pass it in through an interface.",
      pkg: "'{{from}}' may not import the package '{{spec}}'; it belongs to {{owners}}. Reach it through that layer's interface instead.",
    },
  },
  create(context) {
    const root = context.cwd;
    const file = context.filename;
    const rel = path.relative(root, file);
    const own = layerOf(rel);
    if (!own || own.may === '*') return {};
    const isTest = /\.test\.tsx?$/.test(file);

    function check(node, spec) {
      if (typeof spec !== 'string') return;
      if (spec.startsWith('.')) {
        const target = path.relative(root, path.resolve(path.dirname(file), spec));
        const to = layerOf(target);
        if (!to || to.name === own.name) return;
        if (isTest && (to.name === 'test' || own.testMay?.includes(to.name))) return;
        if (!own.may.includes(to.name)) {
          context.report({
            node,
            messageId: 'upward',
            data: { from: own.name, to: to.name, spec, allowed: own.may.join(', ') },
          });
        }
        return;
      }
      for (const owner of PACKAGE_OWNERS) {
        if (owner.pkg.test(spec) && !owner.layers.includes(own.name)) {
          context.report({ node, messageId: 'pkg', data: { from: own.name, spec, owners: owner.layers.join(', ') } });
        }
      }
    }

    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { direction: rule } };
