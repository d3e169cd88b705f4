// Enforces the layer direction of docs/architecture.md: imports point down only.
// A file's layer is the folder it lives in; a relative import is resolved to the
// layer of its target, a package import is checked against the packages the layer
// may use. Colocated tests (*.test.ts) may also import from test/.
import path from 'node:path';

/** The order inside sim, top first: a sim layer may import itself and those after it. */
const SIM_ORDER = ['sim/skills', 'sim/perception', 'sim/world', 'sim/body', 'sim'];
const SIM_ALL = [...SIM_ORDER];
function SIM_BELOW(name) {
  return [...SIM_ORDER.slice(SIM_ORDER.indexOf(name)), 'scenes', 'base'];
}

/**
 * Layers, most specific prefix first. `may` lists the layers a layer may import;
 * naming a group (e.g. 'sim') from outside it allows every layer of that group.
 */
// Shorthands for the stacks below.
const SIM = ['sim', 'scenes', 'base'];
const ROBOT = ['robot', 'robot/sources', 'robot/shadow', 'robot/sim', ...SIM];
const EVAL = ['eval', 'eval/results', 'eval/report'];
const AGENTS = ['agents/conversation', 'agents/workflows', 'agents/runtime', 'agents/sandbox', 'agents/tools', 'agents/models'];
// Tests of the agent layers may build a simulated robot and use any agent layer as a fixture.
const AGENT_TESTS = ['robot', 'robot/sim', 'robot/sources', 'robot/shadow', 'scenes', ...AGENTS];

export const LAYERS = [
  { name: 'renderer', prefix: 'renderer/', may: ['renderer', 'contract'] },
  // The AppApi contract is a leaf: the renderer, Electron and every host import it.
  { name: 'contract', prefix: 'contract/', may: ['contract'] },
  // Small shared helpers (did-you-mean…), one copy each; importable from every layer but the renderer.
  { name: 'base', prefix: 'base/', may: ['base'] },
  { name: 'electron/preload', prefix: 'electron/preload/', may: ['electron/preload', 'contract'] },
  { name: 'electron/main', prefix: 'electron/', may: ['electron/main', 'contract', 'base', 'hosts/service'] },
  // Benchmarks drive the app against the same local fakes the tests use (a model server on 127.0.0.1).
  {
    name: 'hosts/bench',
    prefix: 'hosts/bench/',
    may: ['hosts/bench', 'hosts/web', 'hosts/service', 'contract', ...EVAL, ...AGENTS, ...ROBOT, 'test'],
  },
  // The command line sits on top: it starts the web server, the benchmarks and everything below.
  {
    name: 'hosts/cli',
    prefix: 'hosts/cli/',
    may: [
      'hosts/cli',
      'hosts/bench',
      'hosts/mcp',
      'hosts/foxglove',
      'hosts/web',
      'hosts/service',
      'hosts/robot-api',
      'contract',
      ...EVAL,
      ...AGENTS,
      ...ROBOT,
    ],
  },
  // The MCP server: robots' tools for other agents; it may show them live in Foxglove.
  { name: 'hosts/mcp', prefix: 'hosts/mcp/', may: ['hosts/mcp', 'hosts/foxglove', 'contract', ...AGENTS, ...ROBOT] },
  // Foxglove: MCAP export (replaying a trace's tool calls) and the live WebSocket view, from scene metadata and pose frames.
  { name: 'hosts/foxglove', prefix: 'hosts/foxglove/', may: ['hosts/foxglove', 'hosts/service', 'contract', ...AGENTS, ...ROBOT] },
  // The robot HTTP API: a Robot (and the ALRM tools, through the safety chain) over HTTP.
  { name: 'hosts/robot-api', prefix: 'hosts/robot-api/', may: ['hosts/robot-api', ...AGENTS, ...ROBOT, 'base'] },
  { name: 'hosts/web', prefix: 'hosts/web/', may: ['hosts/web', 'hosts/service', 'contract', ...AGENTS, ...ROBOT] },
  // The app's Evaluate view runs the evaluation runner and reads its results; the service
  // also checks exercise cards with the evaluation's goal predicates (eval sits below hosts).
  { name: 'hosts/service', prefix: 'hosts/service/', may: ['hosts/service', 'contract', ...EVAL, ...AGENTS, ...ROBOT] },
  { name: 'hosts', prefix: 'hosts/', may: ['hosts', 'contract', ...EVAL, ...AGENTS, ...ROBOT] },
  // The results database and the reports take plain records, so the desktop app's main
  // process and the evaluation workers can use them without the agent or robot layers.
  { name: 'eval/results', prefix: 'eval/results/', may: ['eval/results', 'base'] },
  { name: 'eval/report', prefix: 'eval/report/', may: ['eval/report', 'eval/results', 'base'] },
  // Evaluation scores from ground truth, so it sits above the agents and may read the simulator.
  { name: 'eval', prefix: 'eval/', may: ['eval', 'eval/results', 'eval/report', ...AGENTS, ...ROBOT], testMay: ['test'] },
  // Agents, bottom up: models → tools → sandbox → runtime → workflows → the conversation service.
  // Only the conversation service opens robots from their sources; nothing in agents/ sees the simulator.
  {
    name: 'agents/conversation',
    prefix: 'agents/conversation',
    may: [
      'agents/conversation',
      'agents/workflows',
      'agents/runtime',
      'agents/tools',
      'agents/models',
      'robot',
      'robot/sources',
      'scenes',
      'base',
    ],
    testMay: AGENT_TESTS,
  },
  {
    name: 'agents/workflows',
    prefix: 'agents/workflows/',
    may: ['agents/workflows', 'agents/runtime', 'agents/sandbox', 'agents/tools', 'agents/models', 'robot', 'scenes', 'base'],
    testMay: AGENT_TESTS,
  },
  {
    name: 'agents/runtime',
    prefix: 'agents/runtime/',
    may: ['agents/runtime', 'agents/sandbox', 'agents/tools', 'agents/models', 'robot', 'base'],
    testMay: AGENT_TESTS,
  },
  { name: 'agents/sandbox', prefix: 'agents/sandbox/', may: ['agents/sandbox', 'base'], testMay: AGENT_TESTS },
  { name: 'agents/tools', prefix: 'agents/tools/', may: ['agents/tools', 'robot', 'scenes', 'base'], testMay: AGENT_TESTS },
  { name: 'agents/models', prefix: 'agents/models/', may: ['agents/models', 'base'], testMay: AGENT_TESTS },
  { name: 'agents', prefix: 'agents/', may: ['agents', ...AGENTS, 'robot', 'scenes', 'base'], testMay: AGENT_TESTS },
  // Only the simulated robot may touch the simulator; tools and workflows see the Robot seam.
  { name: 'robot/sim', prefix: 'robot/sim/', may: ['robot/sim', 'robot', ...SIM] },
  // Shadow mode runs the simulator beside a real robot.
  { name: 'robot/shadow', prefix: 'robot/shadow/', may: ['robot/shadow', 'robot/sim', 'robot', ...SIM] },
  // The list of robot sources may open each kind; the seam itself knows none of them.
  { name: 'robot/sources', prefix: 'robot/sources', may: ['robot/sources', 'robot/shadow', 'robot/sim', 'robot', 'scenes', 'base'] },
  { name: 'robot', prefix: 'robot/', may: ['robot', 'base'], testMay: ['robot/sources', 'robot/sim'] },
  // Inside sim, layers point down too: core helpers (sim/*.ts) <- body <- world <- perception <- skills.
  // Other layers name the whole group 'sim'. A sim test may set up a world with any sim layer.
  { name: 'sim/skills', prefix: 'sim/skills/', group: 'sim', may: SIM_BELOW('sim/skills'), testMay: SIM_ALL },
  { name: 'sim/perception', prefix: 'sim/perception/', group: 'sim', may: SIM_BELOW('sim/perception'), testMay: SIM_ALL },
  { name: 'sim/world', prefix: 'sim/world/', group: 'sim', may: SIM_BELOW('sim/world'), testMay: SIM_ALL },
  { name: 'sim/body', prefix: 'sim/body/', group: 'sim', may: SIM_BELOW('sim/body'), testMay: SIM_ALL },
  { name: 'sim', prefix: 'sim/', group: 'sim', may: SIM_BELOW('sim'), testMay: SIM_ALL },
  { name: 'scenes', prefix: 'scenes/', may: ['scenes', 'base'] },
  { name: 'test', prefix: 'test/', may: '*' },
  { name: 'build', prefix: 'build/', may: '*' },
  { name: 'bin', prefix: 'bin/', may: '*' },
  { name: 'scripts', prefix: 'scripts/', may: '*' },
  { name: 'eslint-rules', prefix: 'eslint-rules/', may: '*' },
];

/** Packages that belong to one part of the tree only. */
export const PACKAGE_OWNERS = [
  { pkg: /^electron$/, layers: ['electron/main', 'electron/preload', 'test', 'build'] },
  { pkg: /^(react|react-dom)(\/|$)|^@babylonjs\//, layers: ['renderer', 'test'] },
  { pkg: /^@dimforge\//, layers: ['sim', 'test'] },
  { pkg: /^openai(\/|$)/, layers: ['agents/models', 'test'] },
  { pkg: /^node-sqlite3-wasm$/, layers: ['eval/results', 'test'] },
  // The MCP SDK: the server host, and the client that adds external servers' tools.
  { pkg: /^@modelcontextprotocol\//, layers: ['hosts/mcp', 'agents/tools', 'test'] },
  { pkg: /^@mcap\/|^@foxglove\//, layers: ['hosts/foxglove', 'test'] },
];

export function layerOf(relPath) {
  const p = relPath.split(path.sep).join('/');
  // A folder import ("../agents/workflows") belongs to the folder's layer.
  for (const layer of LAYERS) if (p.startsWith(layer.prefix) || `${p}/`.startsWith(layer.prefix)) return layer;
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
        const viaGroup = to.group !== undefined && to.group !== own.group && own.may.includes(to.group);
        if (!own.may.includes(to.name) && !viaGroup) {
          context.report({
            node,
            messageId: 'upward',
            data: { from: own.name, to: to.group && to.group !== own.group ? to.group : to.name, spec, allowed: own.may.join(', ') },
          });
        }
        return;
      }
      for (const owner of PACKAGE_OWNERS) {
        if (owner.pkg.test(spec) && !owner.layers.includes(own.name) && !(own.group && owner.layers.includes(own.group))) {
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
