// eval --urdf: every case's world has the described robot in place of the
// scene's own, and the robot's content is part of the run's identity — a run
// with another robot is another run (a run id used again for it is refused,
// naming --urdf), and a resumed run must be given the same robot again. A run
// with a described robot is not rescored with the scenes' own robots.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadRobot } from '../../scenes/urdf/load';
import { robotFiles as terminalRobotFiles } from '../../test/support/robot-files';
import { openResults } from '../results/index';
import { recordedContent } from '../results/identity';
import { rescoreRun } from './rescore';
import { runEval } from './runner';
import { TERMINAL, typedModel } from '../../test/support/host-refs';

const ROBOTS = path.join(import.meta.dirname, '../../test/fixtures/robots');
const ur5e = () => loadRobot(terminalRobotFiles(path.join(ROBOTS, 'ur5e_like/urdf/ur5e_like.urdf')));
const panda = () => loadRobot(terminalRobotFiles(path.join(ROBOTS, 'panda_like/panda_like.urdf')));
const fresh = () => mkdtempSync(path.join(tmpdir(), 'skillbridge-eval-urdf-'));
const SMALL = { suite: TERMINAL.suite('alrm'), filter: 'fruits', sample: 1, ...typedModel('oracle') };

describe('eval --urdf', () => {
  it('runs each case with the described robot, records its content hash, and refuses the run id for another robot or none', async () => {
    const outDir = fresh();
    const r = await runEval({ ...SMALL, outDir, robot: ur5e(), scale: { runId: 'urdf-run' } });
    expect(r.counts).toMatchObject({ planned: 1, scored: 1, errors: 0 });
    const db = openResults(outDir);
    const run = db.requireRun('urdf-run');
    const content = recordedContent(run.args);
    expect(content?.robot).toMatch(/^ur5e_like@[0-9a-f]{16}$/);
    // The case's world was the described robot's: the trace says which robot acted.
    const traces = path.join(outDir, 'traces', 'urdf-run');
    const raw = readdirSync(traces).map((f) => readFileSync(path.join(traces, f)))[0]!;
    const trace = (raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw).toString('utf8');
    expect(trace).toContain('ur5e_like');
    db.close();

    // Another robot under the same run id is other content.
    await expect(runEval({ ...SMALL, outDir, robot: panda(), scale: { runId: 'urdf-run' } })).rejects.toThrow(
      /--urdf ur5e_like@[0-9a-f]+ there, panda_like@[0-9a-f]+ here/,
    );
    // None (the scenes' own robots) is other content too.
    await expect(runEval({ ...SMALL, outDir, scale: { runId: 'urdf-run' } })).rejects.toThrow(
      /--urdf ur5e_like@[0-9a-f]+ there, none here/,
    );
    // The scenes' own robots would score another robot's run.
    await expect(rescoreRun({ db: outDir, runId: 'urdf-run', write: false })).rejects.toThrow(/ran with the robot ur5e_like@/);
  }, 300_000);

  it('the same robot read again hashes the same; a changed sidecar value does not', async () => {
    const { robotIdentity } = await import('../../scenes/urdf/content-hash');
    const a = ur5e();
    expect(robotIdentity(ur5e())).toBe(robotIdentity(a));
    const b = ur5e();
    b.extras = { ...b.extras!, payloadKg: b.extras!.payloadKg + 1 };
    expect(robotIdentity(b)).not.toBe(robotIdentity(a));
    expect(robotIdentity(panda())).not.toBe(robotIdentity(a));
  });
});
