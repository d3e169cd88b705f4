import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WorldPool } from '../core/world';
import { loadCases } from '../runner/cases';
import { SUITES } from '../suites/index';
import { TERMINAL } from '../../hosts/service/host-policy';
import { playCase } from './play';
import { callsOf } from '../core/events';
import { SEEDS } from './genome';
import { goalReached } from './goals';
const traceDir = mkdtempSync(join(tmpdir(), 'rt-one-'));
const pool = new WorldPool({ seed: 1 });
const [sid, cid, seedName] = process.argv.slice(2);
const suite = SUITES.find((s) => s.id === sid)!;
const { cases } = await loadCases(suite, {});
const c = cases.find((x) => x.id === cid)!;
console.log(c.instruction, JSON.stringify(c.gold).slice(0, 400));
const g = seedName!.startsWith('{') ? JSON.parse(seedName!) : SEEDS[seedName!]!;
const o = await playCase(
  suite,
  c,
  { genome: g },
  {
    pool,
    traceDir,
    seed: 1,
    refs: TERMINAL,
    goal: async (s, cc, out) => {
      for (const x of callsOf(out.events)) console.log('  call', x.stage, x.name, x.raw.slice(0, 200), x.status, x.content.slice(0, 150));
      for (const e of out.events)
        if (e.type === 'final' || e.type === 'route') console.log('  ', e.type, e.stage, JSON.stringify(e).slice(0, 400));
      return goalReached(s, cc, out);
    },
  },
);
console.log('goal', o.goal, o.row.status, JSON.stringify(o.row.metrics), o.row.error ?? '');
await pool.dispose();
