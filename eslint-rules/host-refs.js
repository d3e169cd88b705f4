// The rule `host-refs/minted-by-policy`: the branded values of base/host-refs.ts
// (a suite, a model spec, a run id… a request named and the host policy allowed)
// are made by the host policy only. A type assertion to one of them anywhere
// else would turn a plain string from a request into a reference the code that
// reads files, opens models or calls servers trusts; so would `as never` or
// `as any` in the product code of hosts/ and eval/, which fits any parameter.
// The one exception is dispatch(), whose request the contract's schema has just
// parsed and the AppService parses again through the policy.
import path from 'node:path';

/** The branded types, and the generic they are made with. */
export const HOST_REF_TYPES = [
  'HostRef',
  'SuiteRef',
  'SuiteFile',
  'ModelSpec',
  'ModelFiles',
  'RunId',
  'TraceRef',
  'SceneRef',
  'ServerUrl',
  'LocalModelId',
  'RobotFiles',
  'RobotPackages',
  'RosbridgeUrl',
];

/** Where host refs are made: the policy, and the file that declares them. */
export const MINTS = ['hosts/service/host-policy.ts', 'hosts/service/robot-file-policy.ts', 'base/host-refs.ts'];

/** Product code whose calls the proof covers: no assertion that fits any type there. */
const PRODUCT = /^(hosts|eval)\//;

function refNamed(typeNode) {
  let found;
  const visit = (n) => {
    if (!n || typeof n !== 'object' || found) return;
    if (n.type === 'TSTypeReference' && n.typeName?.type === 'Identifier' && HOST_REF_TYPES.includes(n.typeName.name)) {
      found = n.typeName.name;
      return;
    }
    for (const [k, v] of Object.entries(n)) {
      if (k === 'parent' || k === 'loc' || k === 'range') continue;
      if (Array.isArray(v)) v.forEach(visit);
      else if (v && typeof v === 'object' && typeof v.type === 'string') visit(v);
    }
  };
  visit(typeNode);
  return found;
}

function isDispatchArgument(node) {
  const p = node.parent;
  return p?.type === 'CallExpression' && p.callee.type === 'Identifier' && p.callee.name === 'dispatch' && p.arguments.includes(node);
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Host refs (base/host-refs.ts) are made by the host policy only' },
    schema: [],
    messages: {
      minted:
        "Only the host policy (hosts/service/host-policy.ts) makes a {{name}}: parse the request's value with it (policy.suite(…), policy.evalModel(…), TERMINAL.model(…) on the command line) instead of asserting the type.",
      wildcard:
        "'as {{what}}' fits any parameter, so a plain string could reach code that reads files or calls servers; give the value its real type (a host ref comes from the host policy).",
    },
  },
  create(context) {
    const rel = path.relative(context.cwd, context.filename).split(path.sep).join('/');
    if (MINTS.includes(rel)) return {};
    const product = PRODUCT.test(rel) && !/\.test\.tsx?$/.test(rel);
    const check = (node) => {
      const name = refNamed(node.typeAnnotation);
      if (name) context.report({ node, messageId: 'minted', data: { name } });
      else if (product && !isDispatchArgument(node)) {
        const t = node.typeAnnotation?.type;
        if (t === 'TSNeverKeyword' || t === 'TSAnyKeyword')
          context.report({ node, messageId: 'wildcard', data: { what: t === 'TSNeverKeyword' ? 'never' : 'any' } });
      }
    };
    return { TSAsExpression: check, TSTypeAssertion: check, TSSatisfiesExpression: check };
  },
};

export default { rules: { 'minted-by-policy': rule } };
