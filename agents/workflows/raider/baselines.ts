// RAIDER's baselines (paper 001 §4.2.1). Precond (Appendix B.1, Table B.3): no
// model; nested predefined precondition checks per action, each a call to the
// same grounded tools RAIDER uses (so the trace shows them), explained by the
// first failed check or the passed ones appended. It takes structured queries
// only ("pick(apple)"), as in the paper. LLMVisualObs (Appendix B.3): the model
// gets no tools, only a textual scene built from the robot's belief.
import type { Robot } from '../../../robot/robot';
import type { WorkflowRun } from '../../runtime/workflow';
import { RAIDER_HOUSEHOLD, stateWord } from '../../tools/sets/raider';
import type { Tool } from '../../tools/tool';
import type { Category, Issue, Verdict } from './verdict';

const byName = (name: string): Tool => RAIDER_HOUSEHOLD.find((t) => t.name === name)!;

/** "pick(apple, fridge)" → { action: "pick", args: ["apple", "fridge"] }; undefined for natural language. */
export function parseStructured(query: string): { action: string; args: string[] } | undefined {
  const m = /^\s*([a-z_]+)\s*\(([^()]*)\)\s*\.?\s*$/i.exec(query);
  if (!m) return undefined;
  const args = m[2]!
    .split(',')
    .map((a) => a.trim().replace(/^["']|["']$/g, ''))
    .filter(Boolean);
  return { action: m[1]!.toLowerCase().replace(/_/g, ''), args };
}

interface Check {
  ok: boolean;
  /** The sentence for the explanation, positive or negative. */
  text: string;
  category?: Category;
}

/** The checks of Table B.3, each answered by a tool through ctx.invoke (traced under `stage`). */
class Checks {
  constructor(
    private readonly ctx: WorkflowRun,
    private readonly stage: string,
  ) {}

  private async call(tool: string, args: Record<string, unknown>): Promise<{ ok: boolean; data: unknown; content: string }> {
    const r = await this.ctx.invoke(byName(tool), args, { stage: this.stage });
    return { ok: r.ok, data: r.data, content: r.content };
  }

  async present(name: string): Promise<Check & { id?: string }> {
    const r = await this.call('get_obj_state', { obj: name });
    const id = (r.data as { obj?: string } | undefined)?.obj;
    return r.ok && id ? { ok: true, text: `${id} is present`, id } : { ok: false, text: `${name} is not present`, category: 'IU3' };
  }

  async holding(want: string | 'none' | 'knife'): Promise<Check> {
    const r = await this.call('robot_holding', {});
    const held = (r.data as { holding?: string | null } | undefined)?.holding ?? null;
    if (want === 'none') {
      return held
        ? { ok: false, text: `the robot is holding ${held}`, category: 'IU6' }
        : { ok: true, text: 'the robot is holding nothing' };
    }
    const match = held !== null && (held === want || held.startsWith(`${want}_`) || held.includes(want));
    return match
      ? { ok: true, text: `the robot is holding ${held}` }
      : { ok: false, text: held ? `the robot is holding ${held}, not ${want}` : `the robot is not holding ${want}`, category: 'IU6' };
  }

  async property(id: string, prop: 'openable' | 'toggleable' | 'sliceable'): Promise<Check> {
    const r = await this.call('get_obj_properties', { obj: id });
    const props = ((r.data as { properties?: Record<string, boolean> } | undefined)?.properties ?? {}) as Record<string, boolean>;
    return props[prop] ? { ok: true, text: `${id} is ${prop}` } : { ok: false, text: `${id} is not ${prop}`, category: 'IU5' };
  }

  async state(id: string, key: 'open' | 'on' | 'sliced', want: boolean): Promise<Check> {
    const r = await this.call('get_obj_state', { obj: id });
    const s = ((r.data as { state?: Record<string, boolean> } | undefined)?.state ?? {}) as Record<string, boolean>;
    const has = s[key] ?? false;
    const text = `${id} is ${stateWord(key, has)}`;
    return has === want ? { ok: true, text } : { ok: false, text, category: 'IU4' };
  }
}

/** Table B.3's nested checks for one structured action; stops at the first failed check. */
export async function preconditionCheck(ctx: WorkflowRun, query: string, stage = 'precond'): Promise<Verdict> {
  const q = parseStructured(query);
  if (!q || !q.args.length) {
    return {
      final_response: 'none',
      explanation: `Precond takes structured queries such as pick(apple); "${query}" cannot be checked against predefined preconditions.`,
      category: 'IN',
    };
  }
  const c = new Checks(ctx, stage);
  const passed: string[] = [];
  const objects: string[] = [];
  const issue = (x: Check, i: Issue = 'unfeasibility'): Verdict => ({
    final_response: i,
    explanation: `${x.text}.`,
    ...(x.category ? { category: x.category } : {}),
    ...(objects.length ? { objects } : {}),
  });
  const run = async (steps: Array<() => Promise<Check & { id?: string }>>): Promise<Verdict | undefined> => {
    for (const step of steps) {
      const r = await step();
      if (!r.ok) return issue(r);
      if (r.id) objects.push(r.id);
      passed.push(r.text);
    }
    return undefined;
  };
  const [first, second] = q.args as [string, string | undefined];
  let target = first;
  const present = async () => {
    const r = await c.present(first);
    if (r.id) target = r.id;
    return r;
  };
  const openIfOpenable = async (where: string | undefined): Promise<Check> => {
    if (!where) return { ok: true, text: 'no location to open' };
    const loc = await c.present(where);
    if (!loc.ok || !loc.id) return loc;
    objects.push(loc.id);
    const openable = await c.property(loc.id, 'openable');
    return openable.ok ? c.state(loc.id, 'open', true) : { ok: true, text: `${loc.id} is not openable` };
  };
  let failed: Verdict | undefined;
  switch (q.action) {
    case 'pick':
      failed = await run([present, () => c.holding('none'), () => openIfOpenable(second)]);
      break;
    case 'place':
      failed = await run([present, () => c.holding(target), () => openIfOpenable(second)]);
      break;
    case 'open':
    case 'close':
      failed = await run([
        present,
        () => c.holding('none'),
        () => c.property(target, 'openable'),
        () => c.state(target, 'open', q.action === 'close'),
      ]);
      break;
    case 'turnon':
    case 'turnoff':
      failed = await run([
        present,
        () => c.holding('none'),
        () => c.property(target, 'toggleable'),
        () => c.state(target, 'on', q.action === 'turnoff'),
      ]);
      break;
    case 'slice':
      failed = await run([
        present,
        () => c.holding('knife'),
        () => c.property(target, 'sliceable'),
        () => c.state(target, 'sliced', false),
      ]);
      break;
    default:
      return {
        final_response: 'none',
        explanation: `Precond has no predefined checks for the action "${q.action}" (it knows pick, place, open, close, turnon, turnoff, slice).`,
        category: 'IN',
      };
  }
  if (failed) return failed;
  return { final_response: 'none', explanation: `${passed.join(', ')}.`, category: 'IN', objects };
}

const FACT = /^(\w+)\(([^,()]+)(?:, ([^()]+))?\)$/;

/** LLMVisualObs' visual observation: what the robot sees, with states and relations (REFLECT-style), from its belief. */
export async function sceneDescription(robot: Robot): Promise<string> {
  const p = robot.perception;
  const seen = await p.detect();
  const ids = new Set(seen.map((d) => d.id));
  const items = await Promise.all(
    seen.map(async (d) => {
      const states = Object.entries(await p.objectState(d.id)).map(([k, v]) => stateWord(k, v));
      const label = d.name !== d.id ? `${d.name} (${d.id})` : d.id;
      return states.length ? `${label} (${states.join(', ')})` : label;
    }),
  );
  const sentences: string[] = [];
  for (const f of await p.snapshot()) {
    const m = FACT.exec(f);
    if (!m || !ids.has(m[2]!) || !m[3]) continue;
    if (m[1] === 'on') sentences.push(`${m[2]} is on top of ${m[3]}`);
    else if (m[1] === 'in') sentences.push(`${m[2]} is inside ${m[3]}`);
  }
  for (const d of seen) {
    for (const rel of ['on the left of', 'on the right of'] as const) {
      const others = (await p.related(rel, d.id)).filter((o) => ids.has(o));
      for (const o of others) sentences.push(`${o} is ${rel} ${d.id}`);
    }
  }
  const held = await p.holding();
  sentences.push(held ? `${held} is inside the robot gripper` : 'the robot gripper is empty');
  return `${items.join(', ')}. ${sentences.join('. ')}.`;
}
