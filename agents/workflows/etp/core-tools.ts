// The Embodied Tool Protocol's core (paper 004 §3.1): the model starts with three
// tools — discover a tool by the need it has (ρ, the capability and applicability
// of each card), describe one (κ, its schema and constraints), invoke one by name —
// and every tool it discovers or describes joins the tools it can call directly.
// Every call runs in its own isolated session (../../tools/isolation).
import { z } from 'zod';
import { didYouMean } from '../../../base/did-you-mean';
import type { Catalogue } from '../../tools/catalogue';
import { type IsolationOptions, invokeIsolated } from '../../tools/isolation';
import { type Tool, defineTool } from '../../tools/tool';

/** The tools a conversation has found so far, most recently found last. */
export class VisibleSet {
  private readonly names: string[] = [];

  constructor(private readonly max: number) {}

  /** Adds (or refreshes) names; the oldest drop out beyond the cap. Returns the ones that are new. */
  add(found: readonly string[]): string[] {
    const fresh = found.filter((n) => !this.names.includes(n));
    for (const n of found) {
      const i = this.names.indexOf(n);
      if (i >= 0) this.names.splice(i, 1);
      this.names.push(n);
    }
    while (this.names.length > this.max) this.names.shift();
    return fresh;
  }

  list(): readonly string[] {
    return this.names;
  }
}

const card = { dimension: 'reasoning' as const, tags: ['etp', 'registry'] };

function cardText(t: Tool): string {
  const c = t.card;
  return [
    `${t.name} — ${c.capability}`,
    `  inputs: ${c.inputs}`,
    `  outputs: ${c.outputs}`,
    `  when to use: ${c.whenToUse}`,
    ...(c.constraints ? [`  constraints: ${c.constraints}`] : []),
    `  mode: ${c.mode}; dimension: ${c.dimension}; ${t.category}`,
  ].join('\n');
}

export function coreTools(catalogue: Catalogue, visible: VisibleSet, isolation: IsolationOptions, discoverLimit = 5): Tool[] {
  const { registry } = catalogue;
  const unknown = (name: string): string =>
    `There is no tool named "${name}" in the registry.${didYouMean(name, registry.names())} Use discover_tools with what you need, in words.`;
  return [
    defineTool({
      name: 'discover_tools',
      description:
        'Finds the tools that fit a need, described in words ("how much battery is left", "drive to the tomato bed"). The best matches become tools you can call directly.',
      category: 'information',
      params: z.strictObject({
        need: z.string().min(2).describe('what you want to find out or do, in plain words'),
        limit: z.int().min(1).max(10).optional().describe(`how many tools to return (default ${discoverLimit})`),
      }),
      card: {
        ...card,
        capability: 'search the tool registry by need (BM25 over the tool cards)',
        outputs: 'the best-matching tools with their cards, best first',
        whenToUse: 'first, and whenever you need a capability you do not have yet',
      },
      execute: ({ need, limit }) => {
        const found = registry.discover(need, limit ?? discoverLimit);
        if (!found.length)
          return {
            ok: false,
            content: `No tool matches "${need}". Describe the need with other words: what to find out, or what to change.`,
          };
        const added = visible.add(found.map((f) => f.tool.name));
        return {
          ok: true,
          content: `${found.map((f, i) => `${i + 1}. ${cardText(f.tool)}`).join('\n')}\nThese tools can now be called directly${added.length ? ` (new: ${added.join(', ')})` : ''}; describe_tool shows a tool's argument schema.`,
          data: {
            found: found.map((f) => ({
              name: f.tool.name,
              score: Number(f.score.toFixed(3)),
              matched: f.matched,
              source: catalogue.origin.get(f.tool.name),
            })),
          },
        };
      },
    }),
    defineTool({
      name: 'describe_tool',
      description: "Shows a tool's card and the JSON Schema of its arguments. The tool becomes callable directly.",
      category: 'information',
      params: z.strictObject({ name: z.string().min(1) }),
      card: {
        ...card,
        capability: "read one tool's card and argument schema",
        outputs: 'capability, inputs, outputs, when to use, constraints, mode and the JSON Schema',
        whenToUse: 'before calling a tool whose arguments you are unsure of',
      },
      execute: ({ name }) => {
        const t = registry.get(name);
        if (!t) return { ok: false, content: unknown(name) };
        visible.add([name]);
        return {
          ok: true,
          content: `${cardText(t)}\n  from: ${catalogue.origin.get(name) ?? '?'}\n  arguments (JSON Schema): ${JSON.stringify(t.parameters)}`,
        };
      },
    }),
    defineTool({
      name: 'invoke_tool',
      description:
        'Calls any tool of the registry by name with its arguments, in its own session with a time limit. Use it for tools not yet in your list.',
      category: 'action',
      params: z.strictObject({
        name: z.string().min(1),
        args: z
          .union([z.record(z.string(), z.unknown()), z.string()])
          .default({})
          .describe('the arguments, as the tool’s schema asks (an object)'),
      }),
      card: {
        ...card,
        capability: 'invoke a registered tool in an isolated session (own timeout and error boundary)',
        outputs: "the tool's result, or why it failed or timed out",
        whenToUse: 'to call a tool found with discover_tools',
      },
      execute: async ({ name, args }, ctx) => {
        const t = registry.get(name);
        if (!t) return { ok: false, content: unknown(name) };
        visible.add([name]);
        const r = await invokeIsolated(t, args, ctx, isolation);
        const prefix = r.status === 'ok' || r.status === 'failed' ? '' : `[${r.status}] `;
        return {
          ok: r.ok,
          content: `${prefix}${r.content}`,
          data: { tool: name, status: r.status, durationMs: r.durationMs, result: r.data },
        };
      },
    }),
  ];
}
