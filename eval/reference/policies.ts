// Reference policies as models: the oracle plays a case's gold plan; the floors
// do nothing, call random valid tools, or give the suite's trivial answer. Each
// is a Policy (one turn per model request) turned into a Model, so it runs
// through the same conversation service, workflow and flow as a real model.
import type { CompletionRequest, Model, ModelTool } from '../../agents/models/model';
import { fromFunction } from '../../agents/models/scripted';
import type { PlanStep } from '../core/case';
import type { Policy, PolicyContext, PolicyTurn } from '../core/suite';
import { pickOne, seededRandom } from './rng';

let callSeq = 0;
const callId = () => `ref_${(++callSeq).toString(36)}`;

export function toolCall(name: string, args: Record<string, unknown>): PolicyTurn {
  return { content: null, tool_calls: [{ id: callId(), type: 'function', function: { name, arguments: JSON.stringify(args) } }] };
}

export const offered = (req: CompletionRequest, name: string): boolean => (req.tools ?? []).some((t) => t.function.name === name);

/** A classify step (MAYA, AIMM) offers exactly one tool, classify_request. */
export function isClassify(req: CompletionRequest): boolean {
  return req.tools?.length === 1 && req.tools[0]?.function.name === 'classify_request';
}

export interface PlanPolicyOptions {
  /** The category a classify step should choose. */
  route?: string;
  steps: readonly PlanStep[];
  /** The final answer once the steps are done. */
  final: string | ((ctx: PolicyContext) => string | Promise<string>);
}

/**
 * Plays a plan in order, one call per model turn, then answers. A step whose tool
 * the workflow does not offer ends the plan with a note: the case then fails, and
 * the suite's self-test names it (an oracle that cannot solve a case is a broken case).
 */
export function planPolicy(p: PlanPolicyOptions): Policy {
  let cursor = 0;
  return {
    async next(req, ctx) {
      if (isClassify(req)) {
        const tool = req.tools![0]!;
        const values = enumOf(tool, 'category');
        return toolCall('classify_request', { category: p.route && values.includes(p.route) ? p.route : (values[0] ?? p.route ?? '') });
      }
      const step = p.steps[cursor];
      if (step) {
        if (!offered(req, step.tool)) {
          // ETP's registry: any tool is called by name through invoke_tool.
          if (offered(req, 'invoke_tool')) {
            cursor++;
            return toolCall('invoke_tool', { name: step.tool, args: step.args });
          }
          cursor = p.steps.length;
          return { content: `(oracle: the workflow offers no tool "${step.tool}" here; the plan cannot go on)` };
        }
        cursor++;
        return toolCall(step.tool, step.args);
      }
      return { content: typeof p.final === 'string' ? p.final : await p.final(ctx) };
    },
  };
}

function enumOf(tool: ModelTool, prop: string): string[] {
  const props = (tool.function.parameters['properties'] ?? {}) as Record<string, { enum?: unknown[] }>;
  return (props[prop]?.enum ?? []).filter((v): v is string => typeof v === 'string');
}

/** floor:noop — answers at once and does nothing. */
export function noopPolicy(): Policy {
  return { next: () => ({ content: 'I will not do anything.' }) };
}

/** floor:none — the suite's trivial answer (RAIDER: always "none"), without a tool call. */
export function answerPolicy(answer: string): Policy {
  return { next: () => ({ content: answer }) };
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minimum?: number;
  maximum?: number;
  anyOf?: JsonSchema[];
  default?: unknown;
};

/**
 * floor:random — up to four calls of random offered tools with random arguments
 * that fit their schemas (names drawn from what the robot detects and the places
 * it knows), then the suite's trivial answer. Seeded per case and trial.
 */
export function randomPolicy(seed: number, answer: string): Policy {
  const rnd = seededRandom(seed);
  const calls = 1 + Math.floor(rnd() * 4);
  let made = 0;
  let names: string[] | undefined;
  const value = (s: JsonSchema): unknown => {
    if (s.enum?.length) return pickOne(rnd, s.enum);
    if (s.anyOf?.length) return value(pickOne(rnd, s.anyOf)!);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case 'string':
        return pickOne(rnd, names ?? []) ?? 'thing';
      case 'number':
      case 'integer': {
        const lo = s.minimum ?? -1;
        const hi = s.maximum ?? 1;
        const x = lo + rnd() * (hi - lo);
        return type === 'integer' ? Math.round(x) : Math.round(x * 1000) / 1000;
      }
      case 'boolean':
        return rnd() < 0.5;
      case 'array':
        return [];
      case 'object':
        return object(s);
      default:
        return null;
    }
  };
  const object = (s: JsonSchema): Record<string, unknown> => {
    const props = s.properties ?? {};
    const keys = Object.keys(props);
    // Only required fields, or one of the optional ones when none is required (place: target or position).
    const chosen = s.required?.length ? s.required : keys.length ? [pickOne(rnd, keys)!] : [];
    return Object.fromEntries(chosen.filter((k) => props[k]).map((k) => [k, value(props[k]!)]));
  };
  return {
    async next(req, ctx) {
      names ??= [
        ...(await ctx.robot.perception.detect()).map((d) => d.id),
        ...ctx.robot.info.places.map((p) => p.id),
        ...ctx.robot.info.referencePositions.map((r) => r.id),
      ];
      const tools = req.tools ?? [];
      if (isClassify(req)) {
        const t = tools[0]!;
        return toolCall(t.function.name, object(t.function.parameters as JsonSchema));
      }
      if (made < calls && tools.length) {
        made++;
        const t = pickOne(rnd, tools)!;
        return toolCall(t.function.name, object(t.function.parameters as JsonSchema));
      }
      return { content: answer };
    },
  };
}

/** A policy as a Model; `ctx` is what the policy may read (the simulator, for the oracle). */
export function policyModel(id: string, policy: Policy, ctx: PolicyContext): Model {
  return fromFunction((req) => policy.next(req, ctx), { id, keepRequests: false });
}

/** A plan as the code a Code-as-Policy writer would reply with: one call per line, arguments by position. */
export function planCode(steps: readonly PlanStep[]): string {
  const lines = steps.map(
    (s) =>
      `${s.tool}(${Object.values(s.args)
        .map((v) => JSON.stringify(v))
        .join(', ')});`,
  );
  return `\`\`\`javascript\n${lines.join('\n')}\n\`\`\``;
}

/** The request's last user message (a flow's input). */
export function lastUserText(req: CompletionRequest): string {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]!;
    if (m.role === 'user') return m.content;
  }
  return '';
}

/** True when the request starts a flow: nothing answered since its input. */
export function freshFlow(req: CompletionRequest): boolean {
  return req.messages.at(-1)?.role === 'user';
}
