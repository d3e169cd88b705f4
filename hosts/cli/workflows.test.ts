// skillbridge workflows, and the worked examples of docs/workflows.md for dfki and etp run as
// written (in process through main(), as cli.test.ts does).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTrace } from '../../agents/runtime/trace';
import { createWorkflow } from '../../agents/workflows';
import { openSim } from '../../robot/sim/open';
import { main } from './main';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) });
  return { code, out, err };
}

interface Listed {
  id: string;
  title: string;
  paper: string;
  section: string;
  source: string;
  stages: string[];
}

describe('skillbridge workflows', () => {
  it('--json lists every workflow with its paper, section and the stages it really runs', async () => {
    const r = await cli('workflows', '--json');
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.out) as Listed[];
    expect(listed.map((w) => w.id)).toEqual(expect.arrayContaining(['rtw/basic', 'flat', 'dfki', 'etp']));
    expect(listed.find((w) => w.id === 'dfki')).toMatchObject({
      paper: '003',
      section: '§3–§6',
      stages: ['router', 'chatbot', 'planner', 'critic'],
    });
    expect(listed.find((w) => w.id === 'etp')).toMatchObject({ paper: '004', section: '§3.1', stages: ['agent', 'monitors'] });
    // Each workflow opens on a scene whose robot it suits (an arm workflow needs an arm).
    const worlds = await Promise.all(['farm', 'tabletop/workshop', 'kitchen', 'tabletop/fruits'].map((id) => openSim(id)));
    for (const w of listed) {
      expect(w.paper, w.id).toMatch(/^00[0-4]$/);
      expect(w.section, w.id).toMatch(/^(§|App\. )/);
      expect(w.title.length, w.id).toBeGreaterThan(10);
      let stages: string[] | undefined;
      for (const { robot } of worlds) {
        stages = await createWorkflow(w.id, robot).then(
          (wf) => [...wf.stages],
          () => undefined,
        );
        if (stages) break;
      }
      // The listing and the workflow a conversation opens agree on the stages.
      expect(stages, w.id).toEqual(w.stages);
    }
    for (const { control } of worlds) control.dispose();
  });

  it('prints a readable list, and answers bad input with one line (or a JSON error) and exit 2', async () => {
    const r = await cli('workflows');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^dfki\s+Plan, act and check the result\n\s+paper 003 §3–§6, DFKI planner–executor with router and critic; stages: router → chatbot → planner → critic$/m,
    );
    expect(r.out).toMatch(/\d+ workflows\./);
    const bad = await cli('workflows', 'dfki');
    expect(bad).toMatchObject({ code: 2, out: '' });
    expect(bad.err.trim().split('\n')).toHaveLength(1);
    expect(bad.err).toMatch(/takes no arguments/);
    const badJson = await cli('workflows', 'x', '--json');
    expect(badJson.code).toBe(2);
    expect(JSON.parse(badJson.out)).toEqual({ error: { code: 'usage', message: expect.stringMatching(/takes no arguments/) } });
  });
});

describe('README worked examples', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skillbridge-examples-'));

  it('dfki: the farm survey runs from examples/, routed, planned, acted and checked by the critic', async () => {
    const trace = join(dir, 'dfki.jsonl');
    const r = await cli(
      'run',
      '--scene',
      'farm',
      '--workflow',
      'dfki',
      '--model',
      'scripted:examples/dfki-farm-survey.json',
      '--trace',
      trace,
      '--json',
      'scan poi_1 and poi_2, then return to the dock',
    );
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out) as { final: string; facts: string[] };
    expect(body.final).toMatch(/^Scanned poi_1 .* and poi_2 .*docked\.$/);
    expect(body.facts).toEqual(expect.arrayContaining(['docked(robot)', 'robot_at(robot, charging_dock)']));
    const t = readTrace(trace);
    expect([...new Set(t.records.map((x) => x.stage))]).toEqual(['router', 'planner', 'critic']);
    expect(t.records.filter((x) => x.type === 'tool_result' && /^Success: scanned/.test(x.result ?? ''))).toHaveLength(2);
    expect(t.records.at(-1)).toMatchObject({ type: 'note', stage: 'critic', text: expect.stringMatching(/^round 1: achieved/) });
  }, 30_000);

  it('etp: discovery grows the tool list, a monitor starts, the potato bed is scanned', async () => {
    const trace = join(dir, 'etp.jsonl');
    const r = await cli(
      'run',
      '--scene',
      'farm',
      '--workflow',
      'etp',
      '--model',
      'scripted:examples/etp-farm-discover.json',
      '--trace',
      trace,
      '--json',
      'how much battery is left? keep an eye on it, then check the potato bed for disease',
    );
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { facts: string[] }).facts).toContain('robot_at(robot, poi_4)');
    const t = readTrace(trace);
    const results = t.records.filter((x) => x.type === 'tool_result');
    expect(results.map((x) => (x.type === 'tool_result' ? `${x.name}:${x.status}` : ''))).toEqual([
      'discover_tools:ok',
      'battery_status:ok',
      'invoke_tool:ok',
      'discover_tools:ok',
      'undock:ok',
      'navigate:ok',
      'discover_tools:ok',
      'scan:ok',
    ]);
    expect(results.at(-1)).toMatchObject({ result: expect.stringMatching(/potato_3 .*late blight/) });
  }, 30_000);
});
