// A session's exercise cards: Skillbridge's own, a teacher's folder (serve
// --exercises DIR) and cards uploaded from a page, listed for the scene loaded.
// A check decides the card's goal (eval/goals) on the world's facts now and the
// tool calls made since the scene was loaded — the console's and the agent's.
import { readdirSync } from 'node:fs';
import { readUserTextSync } from '../../base/user-file';
import { join } from 'node:path';
import { AppApiError } from '../../contract/api';
import type { ExerciseScore } from '../../contract/schemas';
import type { ExerciseInfo, ExerciseResult, GoalCheckInfo } from '../../contract/teaching';
import { BUILTIN_CARDS, type ExerciseCard, ExerciseError, checkCard, checkCardNames, parseCardText } from '../../eval/exercises/card';
import type { GoalWorld } from '../../eval/goals/predicates';
import { builtinScene, isBuiltinScene } from '../../scenes/registry';

type Source = ExerciseInfo['source'];

/** Cards uploaded per session at most (a card is a few hundred bytes). */
const MAX_UPLOADED = 50;

/** Every id a built-in scene defines: what a card's goal may name. */
function sceneIds(scene: string): Set<string> | undefined {
  if (!isBuiltinScene(scene)) return undefined;
  const s = builtinScene(scene);
  return new Set([...s.objects.map((o) => o.id), ...s.scene.locations.map((l) => l.id), ...s.scene.people.map((p) => p.id)]);
}

/** Reads a folder's cards; a bad file is reported and left out, never fatal. */
export function loadCardFolder(dir: string, log?: (line: string) => void): ExerciseCard[] {
  const out: ExerciseCard[] = [];
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch (e) {
    log?.(`exercises: cannot read ${dir}: ${(e as Error).message}`);
    return out;
  }
  for (const n of names.sort()) {
    try {
      const card = parseCardText(readUserTextSync(join(dir, n)), n);
      const ids = sceneIds(card.scene);
      if (ids) checkCardNames(card, ids, n);
      out.push(card);
    } catch (e) {
      log?.(`exercises: ${(e as Error).message}`);
    }
  }
  return out;
}

export function leaves(c: GoalCheckInfo): GoalCheckInfo[] {
  return c.children?.length ? c.children.flatMap(leaves) : [c];
}

export class ExerciseBook {
  private readonly cards = new Map<string, { card: ExerciseCard; source: Source }>();

  constructor(folderCards: readonly ExerciseCard[] = []) {
    for (const c of BUILTIN_CARDS) this.cards.set(c.id, { card: c, source: 'builtin' });
    // A teacher's card with a built-in id replaces it.
    for (const c of folderCards) this.cards.set(c.id, { card: c, source: 'folder' });
  }

  list(scene: string | undefined): ExerciseInfo[] {
    return [...this.cards.values()].filter((c) => c.card.scene === scene).map(({ card, source }) => info(card, source));
  }

  /**
   * The card a run was asked to do: its task (or title) is the run's message, in
   * the scene loaded. A run asked in other words has no card, so no goal check.
   */
  forMessage(scene: string | undefined, message: string): string | undefined {
    const norm = (s: string) =>
      s
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim();
    const m = norm(message);
    if (!m) return undefined;
    for (const { card } of this.cards.values())
      if (card.scene === scene && (norm(card.task) === m || norm(card.title) === m)) return card.id;
    return undefined;
  }

  /** Adds a card written as JSON; throws invalid_request with the field when it is wrong. */
  add(text: string): ExerciseInfo {
    let card: ExerciseCard;
    try {
      card = parseCardText(text, 'the exercise card');
      const ids = sceneIds(card.scene);
      if (!ids) throw new ExerciseError(`the exercise card: scene: "${card.scene}" is not a built-in scene (see "skillbridge scenes")`);
      checkCardNames(card, ids, 'the exercise card');
    } catch (e) {
      if (e instanceof ExerciseError) throw new AppApiError('invalid_request', e.message);
      throw e;
    }
    const uploaded = [...this.cards.values()].filter((c) => c.source === 'uploaded').length;
    if (uploaded >= MAX_UPLOADED && !this.cards.has(card.id))
      throw new AppApiError('invalid_request', `at most ${MAX_UPLOADED} uploaded cards per session`);
    this.cards.set(card.id, { card, source: 'uploaded' });
    return info(card, 'uploaded');
  }

  /** Decides a card on a world; the score is what a classroom overview shows. */
  check(id: string, scene: string | undefined, world: GoalWorld): { result: ExerciseResult; score: ExerciseScore } {
    const entry = this.cards.get(id);
    if (!entry) throw new AppApiError('invalid_request', `no exercise "${id}" (listExercises shows this scene's)`);
    if (entry.card.scene !== scene)
      throw new AppApiError('invalid_request', `exercise "${id}" is set in ${entry.card.scene}; load that scene to check it`);
    const r = checkCard(entry.card, world);
    const all = leaves(r.checks);
    const passed = all.filter((c) => c.ok).length;
    return {
      result: { id, ok: r.ok, checks: r.checks, passed, total: all.length },
      score: { id, title: entry.card.title, ok: r.ok, passed, total: all.length },
    };
  }
}

function info(card: ExerciseCard, source: Source): ExerciseInfo {
  return { id: card.id, scene: card.scene, title: card.title, task: card.task, hint: card.hint ?? null, source };
}
