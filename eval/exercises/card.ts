// Exercise cards: a task for a scene ("put the lemon in the bowl") and the goal
// that decides it, checked on the world's facts and the run's tool calls by the
// same predicates the evaluation uses (eval/goals). A teacher writes one as a
// small JSON file; a wrong field gets one line naming it.
import { z } from 'zod';
import { type Goal, type GoalCheck, type GoalWorld, GoalError, checkGoal, namedIds, parseGoal } from '../goals/predicates';
import boxesBlock from './cards/boxes-block-container.json';
import boxesHeavy from './cards/boxes-too-heavy.json';
import farmHome from './cards/farm-home.json';
import farmSurvey from './cards/farm-survey.json';
import fruitsLemon from './cards/fruits-lemon-bowl.json';
import fruitsLook from './cards/fruits-look-first.json';
import fruitsSalad from './cards/fruits-salad.json';
import kitchenFridge from './cards/kitchen-fridge.json';
import kitchenMug from './cards/kitchen-mug-sink.json';
import utensilsSpoon from './cards/utensils-spoon-basket.json';
import workshopDrive from './cards/workshop-drive.json';
import workshopMultimeter from './cards/workshop-multimeter.json';

/** A card's size limit: a card is a few lines of JSON. */
export const MAX_CARD_BYTES = 16 * 1024;

const CardFields = z
  .object({
    id: z
      .string()
      .min(1)
      .max(80)
      .regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and dashes, e.g. "fruits-lemon-bowl"'),
    /** The scene id the task is set in. */
    scene: z.string().min(1).max(200),
    title: z.string().min(1).max(80),
    /** What the students tell the robot (or try to make it do). */
    task: z.string().min(1).max(500),
    hint: z.string().min(1).max(500).optional(),
    goal: z.unknown(),
  })
  .strict();

export interface ExerciseCard {
  id: string;
  scene: string;
  title: string;
  task: string;
  hint?: string;
  goal: Goal;
}

/** A card that cannot be used; the message is one line naming the field and the fix. */
export class ExerciseError extends Error {
  override name = 'ExerciseError';
}

/** Validates a card (parsed JSON). `where` names the file in messages. */
export function parseCard(value: unknown, where = 'exercise card'): ExerciseCard {
  const r = CardFields.safeParse(value);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = issue.path.map(String).join('.') || '(card)';
    const what =
      issue.code === 'unrecognized_keys'
        ? `unknown field ${issue.keys.join(', ')} (a card has id, scene, title, task, hint, goal)`
        : issue.code === 'invalid_type' && issue.input === undefined
          ? 'missing'
          : issue.message;
    throw new ExerciseError(`${where}: ${field}: ${what}`);
  }
  if (r.data.goal === undefined) throw new ExerciseError(`${where}: goal: missing (e.g. { "fact": "in(lemon_1, bowl_1)" })`);
  let goal: Goal;
  try {
    goal = parseGoal(r.data.goal, 'goal');
  } catch (e) {
    if (e instanceof GoalError) throw new ExerciseError(`${where}: ${e.message}`);
    throw e;
  }
  const { hint, ...rest } = r.data;
  return { ...rest, ...(hint ? { hint } : {}), goal };
}

/** Reads a card from JSON text (an upload, a file), BOM and all. */
export function parseCardText(text: string, where = 'exercise card'): ExerciseCard {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new ExerciseError(`${where}: not JSON (${(e as Error).message})`);
  }
  return parseCard(value, where);
}

/** Checks that every id the goal names exists in the scene (objects, places, people). */
export function checkCardNames(card: ExerciseCard, known: ReadonlySet<string>, where = 'exercise card'): void {
  const missing = namedIds(card.goal).filter((id) => !known.has(id) && id !== 'floor');
  if (missing.length)
    throw new ExerciseError(
      `${where}: goal names ${missing.map((m) => `"${m}"`).join(', ')}, which ${card.scene} does not have (its ids: ${[...known].slice(0, 12).join(', ')}${known.size > 12 ? ', …' : ''})`,
    );
}

export interface ExerciseResult {
  ok: boolean;
  checks: GoalCheck;
}

export function checkCard(card: ExerciseCard, world: GoalWorld): ExerciseResult {
  const checks = checkGoal(card.goal, world);
  return { ok: checks.ok, checks };
}

/** The cards that come with Skillbridge, a few per scene. */
export const BUILTIN_CARDS: readonly ExerciseCard[] = [
  fruitsLemon,
  fruitsSalad,
  fruitsLook,
  utensilsSpoon,
  boxesBlock,
  boxesHeavy,
  workshopDrive,
  workshopMultimeter,
  kitchenFridge,
  kitchenMug,
  farmSurvey,
  farmHome,
].map((c) => parseCard(c, `eval/exercises/cards/${(c as { id: string }).id}.json`));
