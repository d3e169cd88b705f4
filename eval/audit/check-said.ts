// Every output read whole: a skill's outcome (summary and incidents), a
// query's answer, a name the robot could not resolve, the world model's
// answers, events and the snapshot. Whatever the readers cannot place is
// counted unjudged (see check-read.ts).
import type { CallUnderCheck, Finding, Skip } from './check-core';
import { type Judge, makeJudge, readOne } from './check-read';
import { readNameFailure } from './check-said-names';
import { readOutcome } from './check-said-skills';
import { readQuery } from './check-said-queries';
import { STATIC_FAILURES, readStatic } from './check-said-static';
import { readWorldModel } from './check-said-world';
import { EVENT_RULES, readSnapshot } from './check-said-events';
import { PEOPLE_RULES, peopleNamed } from './check-said-people';
import { BATTERY_RULES } from './check-said-farm';
import { PATH_FAILURES, PATH_RULES } from './check-said-paths';

interface OutcomeData {
  ok: boolean;
  code?: string;
  summary: string;
  incidents?: string[];
}

/** The outcome a skill returned, when the text is exactly its rendering. */
function outcomeOf(data: unknown, text: string): OutcomeData | undefined {
  const o = data as Partial<OutcomeData> | undefined;
  if (!o || typeof o !== 'object' || typeof o.ok !== 'boolean' || typeof o.summary !== 'string') return undefined;
  const also = o.incidents?.length ? ` Also: ${o.incidents.join('; ')}.` : '';
  const want = o.ok ? `Success: ${o.summary}.${also}` : `Failed (${o.code}): ${o.summary}.${also}`;
  return want === text ? (o as OutcomeData) : undefined;
}

const PEOPLE_TOOLS = new Set(['check_humans_around', 'recognize_humans', 'dist_robot_to_human', 'human_hands_free', 'detect_human_gaze']);
const SNAPSHOT = 'get_semantic_environment_representation_snapshot';

function readText(j: Judge, text: string, ok: boolean): void {
  const tool = j.c.tool;
  if (tool === 'check_events') return void readOne(j, text, EVENT_RULES);
  if (tool === SNAPSHOT) return readSnapshot(j, text);
  if (readWorldModel(j, text, ok)) return;
  if (ok) {
    if (PEOPLE_TOOLS.has(tool)) return void readOne(j, text, PEOPLE_RULES);
    if (tool === 'battery_status') return void readOne(j, text, BATTERY_RULES);
    if (tool === 'check_free_path') return void readOne(j, text, PATH_RULES);
    if (readQuery(j, text) || readStatic(j, text)) return;
    return j.unread(text);
  }
  // A tool's own failure forms first (a name failure with a list after it is one of them), then a name not resolved.
  const failures = tool === 'check_free_path' ? [...PATH_FAILURES, ...STATIC_FAILURES] : STATIC_FAILURES;
  if (failures.some(([re]) => new RegExp(`^(?:${re.source})$`).test(text))) return void readOne(j, text, failures);
  if (!readNameFailure(j, text)) j.unread(text);
}

/** Judges everything an output says; what it cannot read goes to `skip`. */
export function checkSaid(c: CallUnderCheck, skip: Skip): Finding[] {
  const out: Finding[] = [];
  if (!c.result) return out;
  const j = makeJudge(c, out, skip);
  const text = c.result.content;
  // The user's own records may name people: quoting them names nobody.
  if (!(c.tool === 'retrieve_user_information' && c.world.scene.scene.userInfo.includes(text))) peopleNamed(j, text);
  const o = outcomeOf(c.result.data, text);
  if (o) readOutcome(j, o);
  else readText(j, text, c.result.ok);
  // A name judged by two readers (the whole text, and its own sentence) is one finding.
  return out.filter((f, i) => out.findIndex((g) => g.class === f.class && g.detail === f.detail) === i);
}
