// The program a tool process runs: it imports the tool module named on its command
// line and serves the protocol (./protocol.ts) over Node's IPC channel. Kept as a
// string and started with `node -e`, so it runs the same from the sources, from a
// bundle and inside the desktop app (ELECTRON_RUN_AS_NODE). A tool module exports
// `tools`: [{ name, description, category?, parameters, card, run(args, { signal }) }],
// where run returns a string or { ok, content, data }.
export const RUNNER_SOURCE = String.raw`
const { pathToFileURL } = await import('node:url');
const send = (m) => { try { process.send(m); } catch {} };
let tools = [];
try {
  const mod = await import(pathToFileURL(process.argv[1]).href);
  tools = mod.tools ?? mod.default ?? [];
  if (!Array.isArray(tools)) throw new Error('the module must export "tools", an array');
} catch (e) {
  send({ type: 'error', message: 'cannot load ' + process.argv[1] + ': ' + (e && e.message ? e.message : String(e)) });
  process.exit(3);
}
const running = new Map();
process.on('message', async (m) => {
  if (!m || typeof m !== 'object') return;
  if (m.type === 'list') {
    send({ type: 'tools', tools: tools.map(({ run, ...decl }) => decl) });
  } else if (m.type === 'cancel') {
    running.get(m.id)?.abort(new Error('cancelled'));
  } else if (m.type === 'call') {
    const tool = tools.find((t) => t.name === m.name);
    if (!tool) return send({ type: 'result', id: m.id, ok: false, content: 'no tool named ' + m.name + ' in this module' });
    const ctl = new AbortController();
    running.set(m.id, ctl);
    try {
      const r = await tool.run(m.args ?? {}, { signal: ctl.signal });
      const out = typeof r === 'string' ? { ok: true, content: r } : { ok: Boolean(r && r.ok), content: String(r && r.content), ...(r && r.data !== undefined ? { data: r.data } : {}) };
      send({ type: 'result', id: m.id, ...out });
    } catch (e) {
      send({ type: 'result', id: m.id, ok: false, content: 'error: ' + (e && e.message ? e.message : String(e)) });
    } finally {
      running.delete(m.id);
    }
  }
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
`;
