// A suite a user writes (eval --suite FILE): a JSON file of cases — a scene, the
// task the person says, and a goal predicate over the world (the classroom's
// task-card language, eval/goals) — or a file of task cards, which runs as one
// suite. A case scores 1 when its goal holds on the world after the turn (the
// simulator's facts, the calls in order), else 0: decided by the physics.
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { readFailure, readUserTextSync } from '../../../base/user-file';
import path from 'node:path';
import { z } from 'zod';
import { genericSpec } from '../../report/spec';
import { callsOf } from '../../core/events';
import type { AnySuite, Suite } from '../../core/suite';
import { type Goal, GoalError, checkGoal, parseGoal } from '../../goals/predicates';
import { EvalInputError } from '../../runner/errors';
import type { SuiteFile } from '../../../base/host-refs';

/** A path given to --suite rather than a suite id. */
export function isSuiteFile(arg: string): boolean {
  return /\.json$/i.test(arg) || arg.includes('/') || arg.includes(path.sep);
}

const Id = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9][a-z0-9/_-]*$/, 'lower-case letters, digits, dashes, underscores and slashes, e.g. "fruits/lemon-bowl"');

const CaseFields = z
  .object({
    id: Id,
    /** The scene id (default: the suite's). */
    scene: z.string().min(1).max(200).optional(),
    /** What the person says. */
    task: z.string().min(1).max(2000),
    goal: z.unknown(),
    /** Task cards' extra fields, accepted so a card file runs as it is. */
    title: z.string().optional(),
    hint: z.string().optional(),
  })
  .strict();

const SuiteFields = z
  .object({
    id: Id,
    title: z.string().min(1).max(200).optional(),
    scene: z.string().min(1).max(200).optional(),
    /** The workflow a run uses unless --workflow says otherwise (default flat). */
    workflow: z.string().min(1).optional(),
    cases: z.array(z.unknown()).min(1, 'at least one case'),
  })
  .strict();

export interface FileGold {
  goal: Goal;
}

function fail(file: string, field: string, message: string): never {
  throw new EvalInputError('bad-suite-file', `${file}: ${field}: ${message}`);
}

function issue(file: string, prefix: string, e: z.ZodError): never {
  const i = e.issues[0]!;
  const field = [prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(file)';
  const what =
    i.code === 'unrecognized_keys'
      ? `unknown field ${i.keys.join(', ')}`
      : i.code === 'invalid_type' && i.input === undefined
        ? 'missing'
        : i.message;
  fail(file, field, what);
}

/** Reads and validates a suite file the door's policy allowed; every error is one line naming the file and the field. */
export function loadSuiteFile(file: SuiteFile): AnySuite {
  return suiteFromText(readSuiteText(file), file);
}

/** A suite file's text, or one line saying why it cannot be read. */
export function readSuiteText(file: SuiteFile): string {
  try {
    return readUserTextSync(file);
  } catch (e) {
    throw new EvalInputError('bad-suite-file', `${file}: cannot read the suite file (${readFailure(e)})`);
  }
}

/**
 * A suite from a suite file's text (a queued job carries it, so a worker reads no file): `file` names
 * it in errors and decides YAML or JSON; the text is data only (cases, scenes, goals).
 */
export function suiteFromText(text: string, file: string): AnySuite {
  // YAML when the name says so; JSON otherwise (its errors read better).
  const asYaml = /\.ya?ml$/i.test(file);
  let raw: unknown;
  try {
    raw = asYaml ? parseYaml(text) : JSON.parse(text);
  } catch (e) {
    throw new EvalInputError('bad-suite-file', `${file}: not ${asYaml ? 'YAML' : 'JSON'} (${(e as Error).message.split('\n')[0]})`);
  }
  // A bare array is a file of task cards: one suite named after the file.
  if (Array.isArray(raw))
    raw = {
      id: path
        .basename(file)
        .replace(/\.(json|ya?ml)$/i, '')
        .toLowerCase()
        .replace(/[^a-z0-9/_-]+/g, '-'),
      cases: raw,
    };
  const s = SuiteFields.safeParse(raw);
  if (!s.success) issue(file, '', s.error);
  const seen = new Set<string>();
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  const cases = s.data.cases.map((value, i) => {
    const where = `cases.${i}`;
    const c = CaseFields.safeParse(value);
    if (!c.success) issue(file, where, c.error);
    const scene = c.data.scene ?? s.data.scene ?? fail(file, `${where}.scene`, 'missing (give it here or at the top of the file)');
    if (c.data.goal === undefined) fail(file, `${where}.goal`, 'missing (e.g. { "fact": "in(lemon_1, bowl_1)" })');
    let goal: Goal;
    try {
      goal = parseGoal(c.data.goal, `${where}.goal`);
    } catch (e) {
      if (e instanceof GoalError) fail(file, e.path, e.message.slice(e.path.length + 2));
      throw e;
    }
    if (seen.has(c.data.id)) fail(file, `${where}.id`, `"${c.data.id}" is used twice`);
    seen.add(c.data.id);
    return {
      id: c.data.id,
      suite: s.data.id,
      world: { key: `${scene}#${hash}`, scene, edits: [], setup: [] },
      instruction: c.data.task,
      labels: { scene },
      gold: { goal },
    };
  });
  const suite: Suite<FileGold> = {
    id: s.data.id,
    title: s.data.title ?? s.data.id,
    paper: `a suite file (${path.basename(file)})`,
    report: {
      ...genericSpec(s.data.id),
      source: `suite file ${path.basename(file)}`,
      headline: { metric: 'score', scale: 1, description: 'goals reached (the goal predicate holds on the world after the turn)' },
    },
    defaultWorkflow: s.data.workflow ?? 'flat',
    workflows: [s.data.workflow ?? 'flat'],
    gold: z.object({ goal: z.unknown().transform((g) => parseGoal(g)) }) as unknown as z.ZodType<FileGold>,
    generate: () => Promise.resolve(cases.map((c) => ({ ...c, world: { ...c.world } }))),
    score(c, o) {
      const check = checkGoal(c.gold.goal, {
        facts: o.control.facts(),
        calls: callsOf(o.events).map((x) => ({ name: x.name, args: x.args, ok: x.ok })),
        ...(o.turn.final !== undefined ? { answer: o.turn.final } : {}),
      });
      return { metrics: { score: check.ok ? 1 : 0 }, success: check.ok, failureClass: check.ok ? null : 'goal-not-reached' };
    },
    oracle: () => ({
      next: () => {
        throw new Error('the oracle has no plan for a suite file: run a model, or a scripted one (scripted:FILE)');
      },
    }),
    trivialAnswer: () => 'Done.',
    floors: [{ floor: 'noop', maxScore: 0 }],
  };
  return suite as unknown as AnySuite;
}
