// skillbridge red-team: per suite, strategies built only from what a model
// receives play the suite's cases and a small evolutionary search breeds them,
// selected by the metric attacked; it prints, per metric, the best figure found
// without reaching the case's goal beside floor:noop's, with the budget spent.
// --out FILE records the run, --md FILE writes its table between docs/red-team.md's
// markers, --from FILE plays a recorded run's champions first (--dry-run: only
// renders its table). Exit 1 when a figure that is not a paper's raw one is more
// than 0.1 above floor:noop's (the line CI holds).
import { writeFileSync } from 'node:fs';
import { readUserTextSync } from '../../../base/user-file';
import { type RedTeamRecord, breaches, readRecord, renderTable, withTable, writeRecord } from '../../../eval/redteam/record';
import { redTeam } from '../../../eval/redteam/run';
import { findSuite } from '../../../eval/suites/index';
import type { AnySuite } from '../../../eval/core/suite';
import { TERMINAL } from '../../service/host-policy';
import { type Parsed, UsageError, intFlag, numberFlag, stringFlag } from '../args';
import { checkWritableFile } from '../out-files';
import { type Output, json } from '../output';

const ALL = ['raider', 'alrm', 'etp', 'dfki', 'rtw'];
export const EXIT_OVER_THE_LINE = 1;

function suitesOf(p: Parsed): AnySuite[] {
  const given = stringFlag(p.flags, 'suite');
  const ids = given
    ? given
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : ALL;
  return ids.map((id) => {
    const s = ALL.includes(id) ? findSuite(id) : undefined;
    if (!s) throw new UsageError(`--suite ${id}: the red team attacks the built-in suites (${ALL.join(', ')}), whose goals it knows`);
    return s;
  });
}

export async function redTeamCommand(p: Parsed, o: Output): Promise<number> {
  const fromFile = stringFlag(p.flags, 'from');
  const out = p.flags['dry-run'] ? undefined : stringFlag(p.flags, 'out');
  const md = stringFlag(p.flags, 'md');
  if (out) checkWritableFile(out, '--out');
  if (md) checkWritableFile(md, '--md');
  let from: RedTeamRecord | undefined;
  if (fromFile) {
    try {
      from = readRecord(fromFile);
    } catch (e) {
      throw new UsageError(`--from ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  const asJson = Boolean(p.flags['json']);
  // --dry-run renders the recorded run (the table's entry makes it need --from and take no search option).
  const record: RedTeamRecord = p.flags['dry-run'] && from ? from : await search(p, o, from, asJson);
  if (out) writeRecord(out, record);
  if (md) {
    let text = '';
    try {
      text = readUserTextSync(md);
    } catch {
      // a new file: the table alone
    }
    writeFileSync(md, withTable(text, renderTable(record)));
  }
  const broken = breaches(record);
  if (asJson) json(o, { ...record, overTheLine: broken });
  else {
    o.out(renderTable(record));
    o.out(
      broken.length ? `\nover the line (${broken.length}):\n${broken.map((b) => `  ${b}`).join('\n')}` : '\nthe line holds on every suite',
    );
  }
  return broken.length ? EXIT_OVER_THE_LINE : 0;
}

/** The search itself, over the suites and budget the options name. */
async function search(p: Parsed, o: Output, from: RedTeamRecord | undefined, asJson: boolean): Promise<RedTeamRecord> {
  const suites = suitesOf(p);
  const budget = intFlag(p.flags, 'budget', 2000, { min: 1 });
  const sample = p.flags['sample'] === undefined ? undefined : intFlag(p.flags, 'sample', 0, { min: 8 });
  const seed = intFlag(p.flags, 'seed', 1, { min: 0 });
  const minutes = p.flags['minutes'] === undefined ? undefined : numberFlag(p.flags, 'minutes', 0, { min: 0.01 });
  const ac = new AbortController();
  const onSigint = () => {
    o.err('\nstopping: the suites played so far are reported');
    ac.abort();
  };
  process.on('SIGINT', onSigint);
  try {
    return await redTeam({
      suites,
      budget,
      seed,
      refs: TERMINAL,
      signal: ac.signal,
      ...(sample !== undefined ? { sample } : {}),
      ...(minutes !== undefined ? { minutes } : {}),
      ...(from ? { from } : {}),
      ...(asJson ? {} : { onProgress: (l: string) => o.err(l) }),
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
}
