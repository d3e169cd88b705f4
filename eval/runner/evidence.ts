// What a case × trial's recorded files say, for the report's transcript viewer:
// its trace (and a later turn's, x.turn2.jsonl …) as conversation entries, and the
// world its end state recorded. A missing, damaged or cut-off file is a problem
// named in place, never an exception: one bad trace does not cost the report.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { type ReadTrace, type TraceRecord, readTrace } from '../../agents/runtime/trace';
import { endStateFile, readEndState } from '../core/end-state';
import type { CaseEvidence, TranscriptEntry } from '../report/transcript';

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function entry(r: TraceRecord): TranscriptEntry[] {
  const at = 'stage' in r && r.stage ? ` · ${r.stage}` : '';
  switch (r.type) {
    case 'message':
      return [
        {
          kind: r.role,
          title: `${r.role}${r.prior ? ' (earlier turn)' : ''}${at}`,
          ...(r.content ? { text: r.content } : {}),
          ...(r.reasoning ? { reasoning: r.reasoning } : {}),
          ...(r.prior ? { prior: true } : {}),
        },
        // Each call the message makes, with its arguments.
        ...(r.tool_calls ?? []).map((c): TranscriptEntry => ({
          kind: 'call',
          title: `call ${c.function.name}`,
          code: c.function.arguments,
        })),
      ];
    case 'tool_call':
      // The assistant message shows its own calls; a program's API calls (with a parent) only appear here.
      return r.parent ? [{ kind: 'call', title: `call ${r.name} (from ${r.parent})${at}`, code: r.arguments }] : [];
    case 'tool_result':
      return [
        {
          kind: r.ok ? 'result-ok' : 'result-bad',
          title: `result of ${r.name}: ${r.status} · ${seconds(r.durationMs)}${at}`,
          text: r.ok ? (r.result ?? '') : (r.error ?? r.result ?? ''),
        },
      ];
    case 'warning':
      return [{ kind: 'warning', title: `warning ${r.code}${at}`, text: r.message }];
    case 'error':
      return [{ kind: 'error', title: `error${r.kind ? ` (${r.kind})` : ''}${at}`, text: r.message }];
    case 'ask':
      return [{ kind: 'user', title: `asked the person${at}`, text: r.question }];
    case 'answer':
      return [{ kind: 'user', title: `answer (${r.by})${at}`, text: r.answer }];
    case 'safety':
      return r.verdict === 'allow' ? [] : [{ kind: 'warning', title: `safety: ${r.verdict} ${r.skill}${at}`, text: r.reason }];
    case 'code_run':
      return [
        {
          kind: 'call',
          title: `program (${r.ok ? 'ok' : (r.error?.kind ?? 'failed')})${at}`,
          code: r.code,
          ...(r.output ? { text: r.output } : {}),
        },
      ];
    case 'note':
      return [{ kind: 'note', title: `note${at}`, text: r.text }];
    case 'stop':
      return [{ kind: 'warning', title: `stopped (${r.reason})${at}`, text: r.message }];
    case 'end':
      return [
        {
          kind: 'end',
          title: `end: ${r.reason} · ${r.iterations} iterations · ${r.toolCalls} tool calls · ${r.usage.promptTokens} / ${r.usage.completionTokens} tokens · ${seconds(r.durationMs)}${at}`,
        },
      ];
    default:
      return [];
  }
}

/** The case's trace files: its own, then a later turn's (x.turn2.jsonl, …) in order. */
function traceFiles(abs: string): string[] {
  const dir = path.dirname(abs);
  const stem = path.basename(abs).replace(/\.jsonl$/, '');
  let later: string[] = [];
  try {
    const turn = (f: string) => Number(/\.turn(\d+)\.jsonl$/.exec(f)?.[1] ?? 0);
    later = readdirSync(dir)
      .filter((f) => f.startsWith(`${stem}.turn`) && turn(f) > 0)
      .sort((a, b) => turn(a) - turn(b));
  } catch {
    later = [];
  }
  return [abs, ...later.map((f) => path.join(dir, f))];
}

const json = (v: unknown, cap = 600) => {
  const s = JSON.stringify(v) ?? 'none';
  return s.length > cap ? `${s.slice(0, cap)}…` : s;
};

function world(abs: string): CaseEvidence['world'] {
  const file = endStateFile(abs);
  if (!existsSync(file)) return 'No world snapshot was recorded for this case.';
  try {
    const s = readEndState(file);
    const state = JSON.parse(s.world.state) as Record<string, unknown>;
    const time = state['time'];
    return {
      rows: [
        ['world hash', s.hash],
        ['scorer version', s.scorer ?? 'not recorded'],
        ['simulated time (s)', typeof time === 'number' ? time.toFixed(2) : 'not recorded'],
        ['robot', json(state['robot'])],
        ['holding', json(state['grasp'] ?? null)],
      ],
      scene: JSON.stringify(state['scene'] ?? null, null, 1),
    };
  } catch (e) {
    return `The world snapshot cannot be read: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Reads a case × trial's trace and end state (absolute trace path) into what the transcript viewer shows. */
export function readCaseEvidence(abs: string): CaseEvidence {
  if (!existsSync(abs)) return { entries: [], problems: [`The trace file is missing (${abs}).`], world: world(abs) };
  const entries: TranscriptEntry[] = [];
  const problems: string[] = [];
  traceFiles(abs).forEach((file, i) => {
    let t: ReadTrace;
    try {
      t = readTrace(file);
    } catch (e) {
      problems.push(`The trace ${path.basename(file)} cannot be read: ${e instanceof Error ? e.message : String(e)}`);
      return;
    }
    if (i > 0) entries.push({ kind: 'turn', title: `turn ${i + 1}` });
    entries.push(...t.records.flatMap(entry));
    if (t.unfinished) problems.push(`The trace ${path.basename(file)} has no end: the case was cut off.`);
    if (t.skipped?.length) problems.push(`${t.skipped.length} damaged line(s) of ${path.basename(file)} left out.`);
  });
  return { entries, problems, world: world(abs) };
}
