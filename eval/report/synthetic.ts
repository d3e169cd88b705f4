// Synthetic results with the shape the suites will record (labels, metrics,
// timings, traces, errors, several trials), for the report tests and to look at a
// report before any suite has run. Deterministic for a given seed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ResultInput, ResultsDb, RunRecord } from '../results/index';
import { alrmReport } from './specs/alrm';
import { headlineScore } from './spec';
import { seededRandom as rng } from '../../base/seeded-random';

function trace(db: ResultsDb, runId: string, caseId: string, trial: number): string {
  const file = path.join(db.dir, 'traces', runId, `${caseId.replace(/\//g, '-')}-${trial}.jsonl`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ type: 'header', runId, caseId, trial })}\n`);
  return file;
}

export interface SyntheticRun {
  model: string;
  variant: string;
  /** Chance that a subtask is solved; higher is a better model. */
  skill: number;
  /** Mean seconds per case. */
  latency: number;
  trials?: number;
  seed?: number;
  /** Case × trial pairs (by index) that crash, and that were stopped. */
  errorEvery?: number;
  stopLast?: number;
}

/** An ALRM run (paper 002's 54 instructions) into `db`; returns the finished run. */
export function syntheticAlrmRun(db: ResultsDb, o: SyntheticRun): RunRecord {
  const rand = rng(o.seed ?? 1);
  const trials = o.trials ?? 3;
  const run = db.startRun({
    suite: 'alrm',
    model: o.model,
    workflow: o.variant === 'CaP' ? 'alrm/cap' : 'alrm/tap',
    variant: o.variant,
    seed: o.seed ?? 1,
    trials,
    commit: '0123456789abcdef0123456789abcdef01234567',
    args: { suite: 'alrm', model: o.model, trials, jobs: 2 },
  });
  const categories = ['CAN', 'LEX', 'SYN', 'SEM', 'HLR-a', 'HLR-b'];
  const difficulty: Record<string, number> = { CAN: 0, LEX: 0.02, SYN: 0.03, SEM: 0.06, HLR: 0.15 };
  let i = 0;
  const total = 3 * 3 * categories.length * trials;
  for (const scene of ['utensils', 'boxes', 'fruits']) {
    for (const task of ['1', '2', '3']) {
      for (const c of categories) {
        const category = c.startsWith('HLR') ? 'HLR' : c;
        const caseId = `${scene}/${task}/${c}`;
        for (let trial = 1; trial <= trials; trial++, i++) {
          const labels = { scene, task, category };
          const durationMs = Math.round(1000 * o.latency * (0.5 + rand() + (category === 'HLR' ? 0.5 : 0)));
          let r: ResultInput;
          if (o.stopLast && i >= total - o.stopLast) r = { caseId, trial, status: 'stopped', labels };
          else if (o.errorEvery && i % o.errorEvery === o.errorEvery - 1) {
            r = {
              caseId,
              trial,
              status: 'error',
              labels,
              error: 'model server closed the connection (ECONNRESET)',
              errorKind: 'model-server',
              durationMs,
            };
          } else {
            const p = o.skill - (difficulty[category] ?? 0);
            const solved = [rand() < p, rand() < p].filter(Boolean).length;
            const metrics = { alrm_score: solved };
            r = {
              caseId,
              trial,
              status: 'ok',
              labels,
              metrics,
              score: headlineScore(alrmReport, metrics) ?? 0,
              failureClass: solved === 2 ? null : solved === 1 ? 'partial' : 'wrong-object',
              durationMs,
              modelMs: Math.round(durationMs * 0.8),
              tokensIn: 800 + Math.round(rand() * 900),
              tokensOut: 60 + Math.round(rand() * 200),
              costUsd: o.model.startsWith('openai:') ? 0.0004 + rand() * 0.0006 : null,
              toolCalls: 4 + Math.round(rand() * 6),
            };
          }
          r.tracePath = trace(db, run.runId, caseId, trial);
          r.worldHashStart = `w${scene}${task}`;
          r.worldHashEnd = `w${scene}${task}-${Math.round(rand() * 1e6).toString(16)}`;
          db.record(run.runId, r);
        }
      }
    }
  }
  return db.finishRun(run.runId, o.stopLast ? 'stopped' : 'finished');
}

/** A smaller RAIDER run over the issue × query × abstraction taxonomy. */
export function syntheticRaiderRun(db: ResultsDb, o: SyntheticRun): RunRecord {
  const rand = rng(o.seed ?? 2);
  const run = db.startRun({ suite: 'raider', model: o.model, workflow: 'flat', variant: o.variant, seed: o.seed ?? 2, trials: 1 });
  const issues = ['IA', 'IN', 'IU1', 'IU2', 'IU3', 'IU4', 'IU5', 'IU6'];
  const hard: Record<string, number> = { IU2: 0.2, IU5: 0.25 };
  let n = 0;
  for (const issue of issues) {
    for (const query of ['QS', 'QU']) {
      for (const abstraction of query === 'QS' ? ['AS'] : ['AS', 'AN', 'AR', 'AC']) {
        for (let k = 0; k < 2; k++, n++) {
          const caseId = `${issue}-${query}-${abstraction}-${k + 1}`;
          const p = o.skill - (hard[issue] ?? 0);
          const grnd = abstraction === 'AS' ? null : Number(rand() < p + 0.05);
          const det = Number(grnd !== 0 && rand() < p);
          const expl = Number(det === 1 && rand() < 0.97);
          const metrics = { grnd, det, expl, recov_plan: det && issue !== 'IN' ? Number(rand() < 0.9) : null };
          const failureClass = expl ? null : grnd === 0 ? 'GR' : rand() < 0.6 ? 'MC' : rand() < 0.8 ? 'WR' : 'WF';
          db.record(run.runId, {
            caseId,
            status: 'ok',
            labels: { issue, query, abstraction },
            metrics,
            score: det,
            failureClass,
            durationMs: Math.round(1000 * o.latency * (0.6 + rand())),
            tokensIn: 2000 + Math.round(rand() * 1500),
            tokensOut: 150 + Math.round(rand() * 200),
            toolCalls: 2 + Math.round(rand() * 5),
            tracePath: trace(db, run.runId, caseId, 1),
          });
        }
      }
    }
  }
  return db.finishRun(run.runId, 'finished');
}
