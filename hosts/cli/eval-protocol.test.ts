// The protocol guard: a suite runs the workflows and tool sets it is defined for;
// another is refused with one line naming them and --off-protocol, and with
// --off-protocol the run is marked in the results database, the CLI line and
// every report format (HTML, JUnit, CSV, JSON).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { offProtocolReason, protocolOf } from '../../eval/core/protocol';
import { PER_CASE } from '../../eval/core/suite';
import { openResults } from '../../eval/results/index';
import { SUITES } from '../../eval/suites/index';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

const fresh = () => mkdtempSync(join(tmpdir(), 'skillbridge-protocol-'));

describe('the protocol guard', () => {
  it("every suite's default workflow is on its protocol, and the workflows other suites are built for are not", () => {
    for (const s of SUITES) {
      expect(offProtocolReason(s, s.defaultWorkflow), s.id).toBeUndefined();
      expect(protocolOf(s).workflows.length, s.id).toBeGreaterThan(0);
    }
    const byId = Object.fromEntries(SUITES.map((s) => [s.id, s]));
    // ALRM through ETP's registry, RAIDER through ALRM's planner, anything flat.
    expect(offProtocolReason(byId['alrm']!, 'etp')).toMatch(
      /^workflow "etp" is off the alrm protocol: alrm is defined for workflows alrm\/tap, alrm\/cap with tool set alrm; add --off-protocol/,
    );
    expect(offProtocolReason(byId['raider']!, 'alrm/tap')).toMatch(/off the raider protocol/);
    for (const id of ['alrm', 'raider', 'dfki', 'rtw', 'etp']) expect(offProtocolReason(byId[id]!, 'flat'), id).toMatch(/--off-protocol/);
    expect(offProtocolReason(byId['rtw']!, PER_CASE)).toBeUndefined();
    // A case brought with another tool set is off protocol too.
    expect(offProtocolReason(byId['alrm']!, 'alrm/tap', [{ id: 'x', toolSet: 'etp-registry' }])).toMatch(
      /case x uses tool set "etp-registry"/,
    );
  });

  it('refuses an off-protocol workflow with one line and exit 2 (a JSON error under --json)', async () => {
    const out = fresh();
    const r = await cli('eval', '--suite', 'alrm', '--workflow', 'etp', '--model', 'floor:noop', '--out', out);
    expect(r.code).toBe(2);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/workflow "etp" is off the alrm protocol.*alrm\/tap, alrm\/cap.*--off-protocol/);
    const j = await cli('eval', '--suite', 'dfki', '--workflow', 'flat', '--model', 'floor:noop', '--out', out, '--json');
    expect(j.code).toBe(2);
    expect(JSON.parse(j.out)).toMatchObject({ error: { code: 'off-protocol' } });
  }, 120_000);

  it('with --off-protocol the run is marked in the database, the CLI line and every report; an on-protocol run is not', async () => {
    const out = fresh();
    const off = await cli(
      'eval',
      '--suite',
      'alrm',
      '--workflow',
      'flat',
      '--off-protocol',
      '--filter',
      'boxes/3/CAN',
      '--model',
      'floor:noop',
      '--out',
      out,
    );
    expect(off.code).toBe(0);
    expect(off.out).toMatch(/flat \(off protocol\) · floor:noop: score 0\.000/);
    const on = await cli('eval', '--suite', 'alrm', '--filter', 'boxes/3/CAN', '--model', 'floor:noop', '--out', out, '--json');
    expect(on.code).toBe(0);
    expect(JSON.parse(on.out)).toMatchObject({ workflow: 'alrm/tap', offProtocol: false });
    const db = openResults(out, { mode: 'read' });
    const runs = db.runs();
    db.close();
    const offRun = runs.find((x) => x.workflow === 'flat')!;
    const onRun = runs.find((x) => x.workflow === 'alrm/tap')!;
    expect(offRun.args['offProtocol']).toBe(true);
    expect(offRun.variant).toBe('flat (off protocol)');
    expect(onRun.args['offProtocol']).toBeUndefined();
    expect(onRun.variant).toBe('TaP');

    const html = join(out, 'r.html');
    const junit = join(out, 'r.xml');
    const csv = join(out, 'r.csv');
    const rep = await cli('report', out, '--out', html, '--junit', junit, '--csv', csv, '--json');
    expect(rep.code).toBe(0);
    const sums = JSON.parse(rep.out) as unknown;
    const list = (Array.isArray(sums) ? sums : ((sums as Record<string, unknown>)['runs'] ?? [])) as Array<Record<string, unknown>>;
    expect(list.find((s) => s['runId'] === offRun.runId)).toMatchObject({ offProtocol: true, variant: 'flat (off protocol)' });
    expect(list.find((s) => s['runId'] === onRun.runId)).toMatchObject({ offProtocol: false, variant: 'TaP' });
    const page = readFileSync(html, 'utf8');
    expect(page).toMatch(
      /<strong>off protocol:<\/strong> flat \(off protocol\) · floor:noop ran with a workflow or tool set the suite is not defined for/,
    );
    expect(page.match(/off protocol/g)!.length).toBeGreaterThan(3);
    expect(readFileSync(junit, 'utf8')).toMatch(/<property name="protocol" value="off protocol"\/>/);
    expect(readFileSync(csv, 'utf8')).toMatch(/flat \(off protocol\)/);
  }, 300_000);
});
