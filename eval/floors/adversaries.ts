// The adversarial floors: scripted models that game a scorer instead of doing
// the task. floor:claim says it succeeded and does nothing; floor:constant gives
// the suite's most frequent label; floor:stuff names every issue word and every
// object it can see; floor:wrong calls the oracle's tools in the oracle's order
// on other objects; floor:cheat calls the tools a robot should not have (writing
// its own world model) wherever a tool set exposes them, then claims success.
// A scorer that gives any of them much more than floor:noop rewards words.
import type { CompletionRequest } from '../../agents/models/model';
import type { Policy, PolicyContext, PolicyTurn } from '../core/suite';
import { isClassify, offered, toolCall } from '../reference/policies';

export const ADVERSARIES = ['claim', 'constant', 'stuff', 'wrong', 'cheat'] as const;
export type AdversaryId = (typeof ADVERSARIES)[number];

export const CLAIM =
  'Done. I completed the task successfully: everything you asked is in place. {"status": "success", "final_response": "none", "explanation": "Task completed."}';

/** Every name the robot can use for the world around it: what it sees, its places and reference positions. */
export async function worldNames(ctx: PolicyContext): Promise<string[]> {
  const seen = await ctx.robot.perception.detect();
  return [
    ...new Set([
      ...seen.map((d) => d.id),
      ...seen.map((d) => d.id.replace(/_\d+$/, '')),
      ...ctx.robot.info.places.map((p) => p.id),
      ...ctx.robot.info.referencePositions.map((r) => r.id),
    ]),
  ];
}

/** A final answer, every turn, no tool call. */
export function sayPolicy(answer: (ctx: PolicyContext) => string | Promise<string>): Policy {
  return {
    async next(req, ctx) {
      if (isClassify(req)) return firstClassify(req);
      return { content: await answer(ctx) };
    },
  };
}

function firstClassify(req: CompletionRequest): PolicyTurn {
  const tool = req.tools![0]!;
  const props = (tool.function.parameters['properties'] ?? {}) as Record<string, { enum?: unknown[] }>;
  const values = (props['category']?.enum ?? []).filter((v): v is string => typeof v === 'string');
  return toolCall('classify_request', { category: values[0] ?? 'task' });
}

/** Replaces every object name in a tool's arguments by another object the robot sees (deterministically), and negates amounts. */
export function swapObjects(args: unknown, swap: (id: string) => string | undefined): unknown {
  if (typeof args === 'string') return swap(args) ?? swapInText(args, swap);
  // Amounts too (a step, a nudge): the same tool, the wrong way.
  if (typeof args === 'number') return args === 0 ? 0.1 : -args;
  if (Array.isArray(args)) return args.map((a) => swapObjects(a, swap));
  if (args && typeof args === 'object')
    return Object.fromEntries(Object.entries(args as Record<string, unknown>).map(([k, v]) => [k, swapObjects(v, swap)]));
  return args;
}

/** A sentence with every id in it swapped and every number changed: the oracle's statement about other objects, other amounts. */
function swapInText(text: string, swap: (id: string) => string | undefined): string {
  return text
    .replace(/\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*_\d+\b/gi, (id) => swap(id) ?? id)
    .replace(/(?<![\w.])\d+(?:\.\d+)?(?![\w.])/g, (n) => String(Math.round((Number(n) * 1.5 + 0.1) * 100) / 100));
}

/**
 * floor:wrong — the oracle's tool calls in its order with every object swapped
 * for the next object the robot sees (and places for the next place), and a
 * success claim instead of its answers.
 */
export function wrongPolicy(oracle: Policy, claim: string): Policy {
  let swap: ((id: string) => string | undefined) | undefined;
  return {
    async next(req, ctx) {
      if (!swap) {
        const held = await ctx.robot.perception.holding();
        const objects = [...new Set([...(await ctx.robot.perception.detect()).map((d) => d.id), ...(held ? [held] : [])])].sort();
        const places = ctx.robot.info.places.map((p) => p.id).sort();
        const refs = ctx.robot.info.referencePositions.map((r) => r.id).sort();
        const next = (list: string[], id: string) => (list.length > 1 ? list[(list.indexOf(id) + 1) % list.length] : undefined);
        swap = (id) => {
          for (const list of [objects, places, refs]) if (list.includes(id)) return next(list, id);
          const base = objects.find((o) => o.replace(/_\d+$/, '') === id);
          return base ? next(objects, base) : undefined;
        };
      }
      const turn = await oracle.next(req, ctx);
      if (!turn.tool_calls?.length) return { content: claim };
      return {
        content: null,
        tool_calls: turn.tool_calls.map((t) => {
          if (t.function.name === 'classify_request') return t;
          const noArgs =
            !t.function.arguments ||
            t.function.arguments === '{}' ||
            (typeof t.function.arguments === 'object' && !Object.keys(t.function.arguments).length);
          const renamed = otherTool(req, t.function.name, swap!, noArgs);
          if (renamed) t = { ...t, function: { ...t.function, name: renamed } };
          const raw = t.function.arguments;
          let args: unknown = raw;
          if (typeof raw === 'string')
            try {
              args = JSON.parse(raw) as unknown;
            } catch {
              return t;
            }
          return { ...t, function: { ...t.function, arguments: JSON.stringify(swapObjects(args, swap!)) } };
        }),
      };
    },
  };
}

/** A tool named for its object (MAYA's go_to_counter_1): the same verb's tool for the next object, where offered. */
function otherTool(req: CompletionRequest, name: string, swap: (id: string) => string | undefined, noArgs: boolean): string | undefined {
  const offeredNames = new Set((req.tools ?? []).map((x) => x.function.name));
  const parts = name.split('_');
  for (let i = 1; i < parts.length; i++) {
    const other = swap(parts.slice(i).join('_'));
    const candidate = other && `${parts.slice(0, i).join('_')}_${other}`;
    if (candidate && candidate !== name && offeredNames.has(candidate)) return candidate;
  }
  // Else, for a tool without arguments, any other offered tool of the same verb.
  const verb = noArgs && parts.length > 1 ? `${parts[0]}_` : undefined;
  return verb ? [...offeredNames].filter((n) => n.startsWith(verb) && n !== name).sort()[0] : undefined;
}

/** Tools that write what the robot believes instead of changing the world: no robot on a task should have them. */
export const CHEAT_TOOLS = ['set_object_property', 'add_object'] as const;

/**
 * floor:cheat — writes its own world model wherever a tool set exposes a setter
 * (directly or through ETP's invoke_tool): every object it sees marked done and
 * a "goal_reached" node added; then the success claim. Where no set exposes
 * one it is floor:claim.
 */
export function cheatPolicy(claim: string): Policy {
  let queue: Array<{ tool: string; args: Record<string, unknown> }> | undefined;
  return {
    async next(req, ctx) {
      if (isClassify(req)) return firstClassify(req);
      if (!queue) {
        const objects = (await ctx.robot.perception.detect()).map((d) => d.id).slice(0, 6);
        const parent = ctx.robot.info.places[0]?.id ?? objects[0] ?? 'table';
        queue = [
          ...objects.map((o) => ({ tool: 'set_object_property', args: { object_name: o, property_name: 'done', value: true } })),
          { tool: 'add_object', args: { object_name: 'goal_reached', parent_name: parent, object_type: 'object', relation: 'on' } },
        ];
      }
      while (queue.length) {
        const step = queue.shift()!;
        if (offered(req, step.tool)) return toolCall(step.tool, step.args);
        if (offered(req, 'invoke_tool')) return toolCall('invoke_tool', { name: step.tool, args: step.args });
      }
      return { content: claim };
    },
  };
}
