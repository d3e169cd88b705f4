// Shards of one run (`eval --shard K/N --run-id ID` on N machines, each with its
// own results folder) read as one run: `report A/ B/ C/` merges the runs that
// share an id across folders. Each shard's trace paths are made absolute (they
// were relative to their own folder); the run is finished only when every shard
// is, and it counts the shards it merged.
import path from 'node:path';
import type { ResultRecord, RunRecord } from '../results/index';

interface Loaded {
  run: RunRecord;
  results: ResultRecord[];
  dir: string;
}

export function mergeShards<T extends Loaded>(runs: T[]): T[] {
  const byId = new Map<string, T[]>();
  for (const r of runs) byId.set(r.run.runId, [...(byId.get(r.run.runId) ?? []), r]);
  const out: T[] = [];
  const done = new Set<string>();
  for (const r of runs) {
    const group = byId.get(r.run.runId)!;
    if (group.length === 1) {
      out.push(r);
      continue;
    }
    if (done.has(r.run.runId)) continue;
    done.add(r.run.runId);
    const first = group[0]!;
    const seen = new Set<string>();
    const results = group.flatMap((g) =>
      g.results
        .filter((x) => {
          // A case × trial two shards both hold (a shard run twice) counts once.
          const k = `${x.caseId}#${x.trial}`;
          if (seen.has(k)) return false;
          seen.add(k);
          return true;
        })
        .map((x) => ({ ...x, tracePath: x.tracePath ? path.resolve(g.dir, x.tracePath) : x.tracePath })),
    );
    const unfinished = group.find((g) => g.run.status !== 'finished');
    out.push({
      ...first,
      run: {
        ...first.run,
        status: unfinished ? unfinished.run.status : 'finished',
        finishedAt: unfinished
          ? null
          : group
              .map((g) => g.run.finishedAt ?? '')
              .sort()
              .at(-1)!,
        note: `merged from ${group.length} shards: ${group.map((g) => g.dir).join(', ')}`,
      },
      results,
    });
  }
  return out;
}
