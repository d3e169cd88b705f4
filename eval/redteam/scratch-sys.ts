import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorldPool } from '../core/world';
import { loadCases } from '../runner/cases';
import { runCase } from '../runner/run-case';
import { SUITES } from '../suites/index';
import { TERMINAL } from '../../hosts/service/host-policy';
import { fromFunction } from '../../agents/models/scripted';

const traceDir = mkdtempSync(join(tmpdir(), 'rt-probe-'));
const pool = new WorldPool({ seed: 1 });
const [which, filter, model, wf] = process.argv.slice(2);
const suite = SUITES.find((s) => s.id === which)!;
const { cases } = await loadCases(suite, {});
const c = cases.find((x) => x.id.includes(filter!))!;
const out: string[] = [`CASE ${c.id} :: ${c.instruction}\nGOLD ${JSON.stringify(c.gold)}`];
const seen = new Set<string>();
const r = await runCase({
  suite,
  case: c,
  trial: 1,
  workflow: wf ?? suite.defaultWorkflow,
  model: TERMINAL.model(model ?? 'oracle'),
  files: TERMINAL.files(),
  seed: 1,
  pool,
  traceDir,
  wrapModel: (m) =>
    fromFunction(
      async (req) => {
        const sys = req.messages[0]?.role === 'system' ? req.messages[0].content : '';
        if (!seen.has(sys)) {
          seen.add(sys);
          out.push(`=== SYSTEM\n${sys}`);
        }
        const last = req.messages.at(-1)!;
        out.push(
          `--- ${last.role}: ${JSON.stringify((last as any).content)}\n    tools: ${(req.tools ?? []).map((t) => `${t.function.name}(${JSON.stringify((t.function.parameters as any).properties ?? {})}) : ${t.function.description}`).join('\n      ')}`,
        );
        const o = await m.complete(req);
        out.push(`   => ${JSON.stringify(o.message)}`);
        return { content: o.message.content ?? null, ...(o.message.tool_calls ? { tool_calls: o.message.tool_calls } : {}) } as any;
      },
      { id: 'probe', keepRequests: false },
    ),
});
out.push(`RESULT ${r.record.status} ${JSON.stringify(r.record.metrics)} ${r.record.error ?? ''}`);
writeFileSync(`/tmp/rt-${which}-${(filter ?? '').replace(/\W/g, '_')}-${wf?.replace(/\W/g, '_') ?? ''}.txt`, out.join('\n'));
await pool.dispose();
