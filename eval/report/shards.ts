// Shards of one run (`eval --shard K/N --run-id ID` on N machines, each with its
// own results folder) read as one run: `report A/ B/ C/` merges the runs that
// share an id across folders. Shards merge only when they are shares of one
// content (the same suite, model, seed… and N; eval/results/identity.ts): runs that
// merely share an id are refused in one line naming the difference. Each shard's
// trace paths are made absolute (they were relative to their own folder); the
// run is finished only when every shard is and every share 1…N is there, and
// its note names the shards merged and those missing.
import path from 'node:path';
import { ResultsError, type ResultRecord, type RunRecord } from '../results/index';
import { type RunContent, contentDifference, recordedContent } from '../results/identity';

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
    const missing = checkShards(group);
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
    const status = unfinished ? unfinished.run.status : missing.length ? 'stopped' : 'finished';
    out.push({
      ...first,
      run: {
        ...first.run,
        status,
        finishedAt:
          status !== 'finished'
            ? null
            : group
                .map((g) => g.run.finishedAt ?? '')
                .sort()
                .at(-1)!,
        note: `merged from ${group.length} shards: ${group.map((g) => g.dir).join(', ')}${missing.length ? `; shards missing: ${missing.join(', ')}` : ''}`,
      },
      results,
    });
  }
  return out;
}

const withoutShard = (c: RunContent): RunContent => ({ ...c, shard: null });

/**
 * Checks that the runs sharing an id are shares of one content and of one N, and returns the shares
 * 1…N none of them holds ("3/4"). Runs recorded before identities are merged as before.
 */
function checkShards(group: readonly Loaded[]): string[] {
  const id = group[0]!.run.runId;
  const contents = group.map((g) => ({ g, c: recordedContent(g.run.args) }));
  const known = contents.filter((x): x is { g: Loaded; c: RunContent } => x.c !== undefined);
  const base = known[0];
  for (const x of known.slice(1)) {
    const diff = contentDifference(withoutShard(base!.c), withoutShard(x.c));
    if (diff)
      throw new ResultsError(
        'not-shards',
        `run ${id} in ${base!.g.dir} and in ${x.g.dir} are not shards of one run (${diff}); report them apart or give them other run ids`,
      );
  }
  const shares = known.map((x) => /^(\d+)\/(\d+)$/.exec(x.c.shard ?? ''));
  if (!known.length) return [];
  if (shares.some((m) => !m))
    throw new ResultsError(
      'not-shards',
      `run ${id} is in ${group.length} folders, not all of them a shard (--shard K/N): report them apart`,
    );
  const counts = new Set(shares.map((m) => Number(m![2])));
  if (counts.size > 1)
    throw new ResultsError(
      'not-shards',
      `run ${id}'s shards split it differently (${[...counts].map((n) => `/${n}`).join(', ')}): report them apart`,
    );
  const n = [...counts][0]!;
  const held = new Set(shares.map((m) => Number(m![1])));
  return Array.from({ length: n }, (_, i) => i + 1)
    .filter((k) => !held.has(k))
    .map((k) => `${k}/${n}`);
}
