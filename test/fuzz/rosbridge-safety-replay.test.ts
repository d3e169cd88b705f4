// Replays exported rosbridge safety cases (a file written by
// `npx tsx test/fuzz/rosbridge-safety.ts export FILE`) against a real
// rosbridge_server (SKILLBRIDGE_REAL_ROSBRIDGE=ws://…, SKILLBRIDGE_REAL_ROS=1|2)
// or, without one, against the protocol stand-in: scripts/real-rosbridge.sh
// runs it. Each case is judged by the same oracle as the fuzzer's.
import { afterAll, describe, expect, it } from 'vitest';
import { type RosbridgeTestServer, startRosbridgeServer } from '../support/rosbridge-server';
import { type CaseReport, type SafetyCase, readCases, runCase } from './rosbridge-safety';

const file = process.env['ROSBRIDGE_SAFETY_CASES'];
const real = process.env['SKILLBRIDGE_REAL_ROSBRIDGE'];
const realRos: 1 | 2 = process.env['SKILLBRIDGE_REAL_ROS'] === '2' ? 2 : 1;

describe('rosbridge safety cases, replayed', () => {
  if (!file) {
    it.skip('skipped: set ROSBRIDGE_SAFETY_CASES=FILE (scripts/real-rosbridge.sh writes one and sets it)', () => {});
    return;
  }
  const cases = readCases(file);
  const servers: Partial<Record<1 | 2, RosbridgeTestServer>> = {};
  afterAll(async () => {
    for (const s of Object.values(servers)) await s.close();
  });

  it(
    `every case keeps the invariants (${cases.length} cases, ${real ? `the rosbridge at ${real}` : 'the stand-in'})`,
    async () => {
      const t0 = performance.now();
      // A real rosbridge has no stand-in to serve a service or a ROS 2 action: those cases are for the stand-in.
      const playable = cases.filter((c) => !real || (c.ros === realRos && c.skill !== 'service'));
      const failures: string[] = [];
      const totals = { motions: 0, refused: 0, cancels: 0, latencies: [] as number[], openFailed: [] as string[] };
      const one = async (c: SafetyCase): Promise<CaseReport> => {
        if (real) return runCase(c, { url: real, ros: realRos });
        servers[c.ros] ??= await startRosbridgeServer({ ros: c.ros });
        return runCase(c, { url: servers[c.ros]!.url, ros: c.ros, standIn: servers[c.ros]! });
      };
      // Two at a time: they mostly wait.
      for (let i = 0; i < playable.length; i += 2) {
        const batch = playable.slice(i, i + 2);
        const reports = await Promise.all(batch.map(one));
        for (const [j, r] of reports.entries()) {
          totals.motions += r.figures.motions;
          totals.refused += r.figures.refused;
          totals.cancels += r.figures.cancels;
          totals.latencies.push(...r.figures.latencies);
          if (r.figures.openFailed) totals.openFailed.push(r.figures.openFailed);
          if (r.violations.length) failures.push(`case ${i + j}: ${r.violations.join('; ')}\n  ${JSON.stringify(batch[j])}`);
        }
      }
      const max = totals.latencies.length ? Math.max(...totals.latencies) : 0;
      console.log(
        `rosbridge safety replay: ${playable.length} of ${cases.length} cases in ${Math.round((performance.now() - t0) / 100) / 10} s against ${real ?? 'the stand-in'}; ${totals.motions} motion commands sent, ${totals.refused} calls refused, ${totals.cancels} goals cancelled (longest after the state turned: ${max} ms), ${totals.openFailed.length} did not connect${totals.openFailed.length ? ` (${[...new Set(totals.openFailed)].join('; ')})` : ''}; ${failures.length} cases broke an invariant`,
      );
      expect(failures).toEqual([]);
    },
    60_000 + cases.length * 15_000,
  );
});
