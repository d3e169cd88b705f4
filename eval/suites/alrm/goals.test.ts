// ALRM's goals in the world: no case starts with a subtask already done (doing
// nothing scores 0 everywhere, for every seed), "at a position" is a region as
// wide as the object plus a little, and a case whose model failed is a miss even
// when the world is at the goal.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelError } from '../../../agents/models/model';
import { WorldPool } from '../../core/world';
import { generateCases } from '../../runner/cases';
import { runCase } from '../../runner/run-case';
import { AT_SLACK_M, goalHolds } from './goals';
import { alrmSuite } from './index';
import { typedModel } from '../../../test/support/host-refs';

const traceDir = mkdtempSync(join(tmpdir(), 'skillbridge-alrm-goals-'));
const pools: WorldPool[] = [];
afterAll(async () => {
  for (const p of pools) await p.dispose();
});

describe('ALRM goals', () => {
  it('no generated case starts satisfied: floor:noop scores 0 on every case for seeds 1, 2 and 3', async () => {
    // The generator itself refuses a case whose subtask holds at the start.
    const cases = await generateCases(alrmSuite as never);
    expect(cases).toHaveLength(54);
    const scored: string[] = [];
    for (const seed of [1, 2, 3]) {
      const pool = new WorldPool({ seed });
      pools.push(pool);
      for (const c of cases) {
        const r = await runCase({
          suite: alrmSuite as never,
          case: c,
          trial: 1,
          workflow: 'alrm/tap',
          ...typedModel('floor:noop'),
          seed,
          pool,
          traceDir,
        });
        expect(r.record.status, `${c.id}: ${r.record.error ?? ''}`).toBe('ok');
        if (r.record.metrics?.['alrm_score'] !== 0) scored.push(`${c.id} seed ${seed}: ${JSON.stringify(r.record.metrics)}`);
      }
    }
    expect(scored).toEqual([]);
  }, 900_000);

  it('"at a position" holds within half the object\'s narrower side plus the slack, not at a fixed 8 cm', async () => {
    const pool = new WorldPool({ seed: 1 });
    pools.push(pool);
    // The metal box is 5.5 cm wide: its region around "front" (0.15, 0) is 2.75 + 3 = 5.75 cm.
    const at = async (dx: number) => {
      const key = `boxes-front-${dx}`;
      const { cw, robot } = await pool.checkout({
        key,
        scene: 'tabletop/boxes',
        edits: [{ kind: 'place', object: 'metal_box_1', position: [0.15 + dx, 0, -0.02], on: 'table_1' }],
        setup: [],
      });
      return goalHolds(cw.control, robot, { object: 'metal_box_1', at: 'front' });
    };
    const near = await at(0.01);
    expect(near.done, near.why).toBe(true);
    const off = await at(0.065);
    expect(off.done, off.why).toBe(false);
    expect(off.why).toMatch(/cm from front \(tolerance 5\.\d cm\)/);
    expect(AT_SLACK_M).toBeLessThan(0.04);
  }, 120_000);

  it('a case whose model failed is an error with no score (never a pass) even when the world reached the goal', async () => {
    const pool = new WorldPool({ seed: 1 });
    pools.push(pool);
    const c = (
      await alrmSuite.generate({
        inWorld: async (spec, fn) => fn(await pool.checkout(spec).then((x) => ({ robot: x.robot, control: x.cw.control }))),
      })
    ).find((x) => x.id === 'fruits/1/CAN')!;
    // The oracle does every pick and place; its model then fails on the final answer.
    const failOnAnswer = (m: {
      id: string;
      complete: (r: never) => Promise<{ message: { content?: string | null; tool_calls?: unknown[] } }>;
    }) => ({
      id: m.id,
      async complete(req: never) {
        const r = await m.complete(req);
        if (!r.message.tool_calls?.length) throw new ModelError('the endpoint refused the key', 'auth', 401);
        return r;
      },
    });
    const run = (wrap: boolean) =>
      runCase({
        suite: alrmSuite as never,
        case: c,
        trial: 1,
        workflow: 'flat',
        ...typedModel('oracle'),
        seed: 1,
        pool,
        traceDir,
        ...(wrap ? { wrapModel: failOnAnswer as never } : {}),
      });
    const clean = await run(false);
    expect(clean.record.metrics?.['alrm_score']).toBe(2);
    const failed = await run(true);
    expect(failed.record).toMatchObject({ status: 'error', errorKind: 'model-auth' });
    expect(failed.record.error).toMatch(/refused the key/);
    expect(failed.record.score ?? null).toBeNull();
    expect(failed.record.success).toBeUndefined();
  }, 120_000);
});
