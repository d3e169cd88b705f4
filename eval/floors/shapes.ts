// Named shapes that once scored above the floor without reaching the goal,
// kept as cheap scripted policies so each stays a regression test. Each is
// built from what a model receives (the instruction and the tools offered),
// except do-everything, which knows the scene's task list as a benchmark
// regular would:
// first-branch  — ETP: calls the designated tool on the named object, then does
//                 the instruction's first branch whatever the tool said;
// pack-ids      — ETP: calls the designated tool on another object, then the
//                 first branch with every id the robot sees packed into one argument;
// static-answer — one fixed answer, no tool call (display names, "3 kg",
//                 "emergency stop", the most common RAIDER verdicts);
// verb-only     — RAIDER: a verdict from the query's verb alone (place: the hand
//                 is empty; else: not present), no object named, no tool call;
// do-everything — ALRM: every task of the scene, whatever the instruction asks.
import type { CompletionRequest, ModelTool } from '../../agents/models/model';
import type { Policy, PolicyContext, PolicyTurn } from '../core/suite';
import { isClassify, lastUserText, offered, toolCall } from '../reference/policies';

export const SHAPES = ['first-branch', 'pack-ids', 'static-answer', 'verb-only', 'do-everything'] as const;
export type ShapeId = (typeof SHAPES)[number];

function firstClassify(req: CompletionRequest, prefer?: string): PolicyTurn {
  const tool = req.tools![0]!;
  const props = (tool.function.parameters['properties'] ?? {}) as Record<string, { enum?: unknown[] }>;
  const values = (props['category']?.enum ?? []).filter((v): v is string => typeof v === 'string');
  return toolCall('classify_request', { category: prefer && values.includes(prefer) ? prefer : (values[0] ?? 'task') });
}

/** The person's instruction: the first user message of the conversation. */
function instructionOf(req: CompletionRequest): string {
  const m = req.messages.find((x) => x.role === 'user' && typeof x.content === 'string');
  return typeof m?.content === 'string' ? m.content : lastUserText(req);
}

/** Calls made so far in this conversation (the assistant's tool calls). */
function callsSoFar(req: CompletionRequest): number {
  return req.messages
    .filter((m) => m.role === 'assistant')
    .reduce((n, m) => n + ((m as { tool_calls?: unknown[] }).tool_calls?.length ?? 0), 0);
}

function toolOf(req: CompletionRequest, name: string): ModelTool | undefined {
  return (req.tools ?? []).find((t) => t.function.name === name);
}

/** A tool's arguments from one object phrase: each string parameter gets the phrase, an enum its fitting or first value. */
function argsFor(tool: ModelTool, phrase: string, text: string): Record<string, unknown> {
  const props = (tool.function.parameters['properties'] ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  const out: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(props)) {
    if (p.enum?.length) {
      const values = p.enum.filter((v): v is string => typeof v === 'string');
      out[k] = values.find((v) => new RegExp(`\\b${v}\\b`, 'i').test(text)) ?? values[0];
    } else if (p.type === 'string' || p.type === undefined) out[k] = phrase;
  }
  return out;
}

/** The object an ETP instruction names: "on the red apple.", "inside the blue bowl", "the kettle". */
function objectPhrase(text: string): string {
  const m = /\b(?:on|inside|of|at) the ([^.,;]+?)(?:[.,;]| itself| and | then )/i.exec(text) ?? /\bthe ([^.,;]+?)[.,;]/i.exec(text);
  return m?.[1]?.trim() ?? 'it';
}

/** The instruction's first branch (or its "then" step) as a call: verb and argument, read from the words. */
function firstBranch(text: string, object: string): { tool: string; arg: string } | undefined {
  const clause = (/\bIf [^,]*, ([^;.]*)/i.exec(text) ?? /\bthen ([^;.]*)/i.exec(text))?.[1]?.trim();
  if (!clause) return undefined;
  const named = /\b(?:pick up|open|close|move to|go to|place [a-z ]+? on) (?:the )?([a-z0-9_ ]+?)(?: itself)?$/i.exec(clause)?.[1];
  const arg = named && !/^(it|that item|what is inside it)$/i.test(named) ? named : object;
  if (/^pick\b/i.test(clause)) return { tool: 'pick', arg };
  if (/^open\b/i.test(clause)) return { tool: 'open', arg };
  if (/^close\b/i.test(clause)) return { tool: 'close', arg };
  if (/^(move|go) to\b/i.test(clause)) return { tool: 'move_to', arg };
  if (/^place\b/i.test(clause)) return { tool: 'place', arg };
  if (/^say\b/i.test(clause)) return { tool: 'say', arg: `${clause.replace(/^say\s*/i, '')}: the ${object}, 1 metre, 0.3 kg.` };
  return undefined;
}

/**
 * first-branch and pack-ids: the designated tool (named by "Use TOOL"), then the
 * first branch's action, then "Done.". pack-ids calls the tool on another object
 * and packs every id it can see into the action's argument.
 */
export function branchPolicy(pack: boolean): Policy {
  let ids: string[] | undefined;
  return {
    async next(req, ctx) {
      if (isClassify(req)) return firstClassify(req);
      const text = instructionOf(req);
      const object = objectPhrase(text);
      if (pack && !ids) ids = (await ctx.robot.perception.detect()).map((d) => d.id).sort();
      const n = callsSoFar(req);
      const designated = /\bUse ([a-z_]+)/i.exec(text)?.[1];
      if (n === 0 && designated && offered(req, designated)) {
        const other = pack ? (ids ?? []).find((i) => !object.toLowerCase().includes(i.replace(/_\d+$/, '').replace(/_/g, ' '))) : undefined;
        return toolCall(designated, argsFor(toolOf(req, designated)!, other ?? object, text));
      }
      if (n <= 1) {
        const b = firstBranch(text, object);
        if (b && offered(req, b.tool)) {
          const arg = pack && b.tool !== 'say' && b.tool !== 'move_to' ? (ids ?? []).join(', ') : b.arg;
          return toolCall(b.tool, argsFor(toolOf(req, b.tool)!, arg, text));
        }
      }
      return { content: 'Done.' };
    },
  };
}

/** One answer for every case of every suite: what a model could say without looking. */
export const STATIC_ANSWER = [
  'My arm lifts at most 3 kg. I have an emergency stop that halts every motion.',
  'I see a white mug, a blue mug, a coffee machine, a toaster and a kettle; the blue mug is on the counter.',
  JSON.stringify({ final_response: 'unfeasibility', explanation: 'It is not present.', category: 'IU3', objects: [] }),
  'STATUS: done',
].join('\n');

export function staticAnswerPolicy(): Policy {
  return {
    next(req) {
      if (isClassify(req)) return firstClassify(req, 'information');
      return { content: STATIC_ANSWER };
    },
  };
}

/** RAIDER's verdict from the verb alone: putting down what the hand holds → the hand is empty; anything else → not present. */
export function verbOnlyPolicy(): Policy {
  return {
    next(req) {
      if (isClassify(req)) return firstClassify(req);
      const q = instructionOf(req);
      const place = /^place\(|\b(put|place|set)\b.*\b(hold|holding|hand|carrying)\b/i.test(q);
      return {
        content: JSON.stringify({
          final_response: 'unfeasibility',
          explanation: place ? 'The hand is empty: there is nothing to place.' : 'It is not present here.',
          category: place ? 'IU6' : 'IU3',
          objects: [],
        }),
      };
    },
  };
}

export type { PolicyContext };
