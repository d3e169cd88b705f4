// The Embodied Tool Protocol as a workflow (paper 004 §3.1): the registry holds
// every tool the robot can use (all its sets, the continuous monitors, tools run
// out of process), each with its card; the model starts from the three core tools
// and the tools it discovers join its list. Every call is isolated (its own
// timeout and error boundary). Monitors started by the model run in the
// background for the rest of the turn; what they raise is appended to the next
// tool result the model reads, and a critical event preempts the running call.
import type { Robot } from '../../../robot/robot';
import type { FlowLimits } from '../../runtime/flow';
import type { Workflow, WorkflowRun } from '../../runtime/workflow';
import { buildCatalogue } from '../../tools/catalogue';
import { type ExternalToolSource, externalTools } from '../../tools/external/source';
import { DEFAULT_ISOLATION, type IsolationOptions, isolated } from '../../tools/isolation';
import { MONITOR_TOOLS, MonitorHost, type RaisedEvent } from '../../tools/monitors';
import type { Tool, ToolResult } from '../../tools/tool';
import { ANSWER_RULES, robotContext } from '../prompt';
import { VisibleSet, coreTools } from './core-tools';

export interface EtpOptions {
  /** Tools from outside the project (a tool module in a child process today; MCP servers later). */
  external?: readonly ExternalToolSource[];
  /** More in-process tools for the registry (plug-ins, tests). */
  tools?: readonly Tool[];
  /** Each call's own deadline and grace (default 60 s). */
  isolation?: IsolationOptions;
  discoverLimit?: number;
  /** The most discovered tools shown at once (the oldest drop out). */
  maxVisible?: number;
  limits?: Partial<FlowLimits>;
}

const VISIBLE_KEY = 'etp.visible';
const LIMITS: Partial<FlowLimits> = { maxIterations: 24, maxToolCallsPerIteration: 4, timeLimitMs: 300_000 };

function prompt(robot: Robot, size: number, dims: string): string {
  return [
    robotContext(robot),
    [
      `Your tools come from a registry of ${size} tools (${dims}). You start with three:`,
      '- discover_tools(need): describe in words what you need to find out or do; the best-matching tools are listed with their cards and become tools you can call directly.',
      "- describe_tool(name): a tool's card and argument schema.",
      '- invoke_tool(name, args): call any registered tool by name.',
      'Every call runs in its own session with a time limit: a tool that hangs or fails comes back as a result saying so, and you can go on.',
      'Tools whose mode is "continuous" (monitors) keep running in the background once started; what they notice appears after later tool results as "Events raised". A result that begins with "Interrupted:" was stopped by a critical event: read it before going on.',
    ].join('\n'),
    ANSWER_RULES,
  ].join('\n\n');
}

/** A tool whose results carry the monitors' news that arrived meanwhile. */
function withEvents(tool: Tool, take: () => RaisedEvent[]): Tool {
  const deliver = (r: ToolResult): ToolResult => {
    const ev = take();
    return ev.length
      ? { ...r, content: `${r.content}\n\nEvents raised by running monitors:\n${ev.map((e) => `- ${e.monitor}: ${e.text}`).join('\n')}` }
      : r;
  };
  return {
    ...tool,
    run: async (args, ctx) => deliver(await tool.run(args, ctx)),
    call: async (raw, ctx) => deliver(await tool.call(raw, ctx)),
  };
}

export async function etpWorkflow(robot: Robot, opts: EtpOptions = {}): Promise<Workflow> {
  const problems: string[] = [];
  const extra: Array<{ source: string; tools: readonly Tool[] }> = [{ source: 'monitors', tools: MONITOR_TOOLS }];
  if (opts.tools?.length) extra.push({ source: 'plugins', tools: opts.tools });
  for (const src of opts.external ?? []) {
    try {
      const { tools, rejected } = await externalTools(src);
      extra.push({ source: src.id, tools });
      problems.push(...rejected.map((r) => `left out ${r}`));
    } catch (e) {
      problems.push(`could not load tools from ${src.id}: ${(e as Error).message}`);
    }
  }
  const catalogue = await buildCatalogue(robot, extra);
  const isolation = { ...DEFAULT_ISOLATION, ...opts.isolation };
  const dims = (['perception', 'cognition', 'reasoning', 'execution'] as const)
    .map((d) => `${catalogue.registry.list({ dimension: d }).length} ${d}`)
    .join(', ');
  const system = prompt(robot, catalogue.registry.size, dims);

  const visibleOf = (ctx: WorkflowRun): VisibleSet => {
    let v = ctx.state.get(VISIBLE_KEY);
    if (!(v instanceof VisibleSet)) {
      v = new VisibleSet(opts.maxVisible ?? 12);
      ctx.state.set(VISIBLE_KEY, v);
    }
    return v as VisibleSet;
  };

  return {
    id: 'etp',
    title: 'Find the tools a task needs, then use them',
    description:
      'The model starts with discover_tools, describe_tool and invoke_tool over a registry of every tool the robot can use (with cards, ranked by need); discovered tools join its list; every call is isolated; monitors run in the background and raise events.',
    stages: ['agent', 'monitors'],
    systemPrompt: () => system,
    run: async (ctx) => {
      for (const p of problems.splice(0)) ctx.note(p, undefined, 'monitors');
      const pending: RaisedEvent[] = [];
      const monitors = new MonitorHost(ctx.robot, (e) => {
        pending.push(e);
        ctx.note(`${e.monitor}: ${e.text}`, { severity: e.severity, time: e.time }, 'monitors');
        if (e.severity === 'critical') ctx.preempt(`${e.monitor} reports: ${e.text.replace(/^t=\S+ /, '')}`);
      });
      const detach = monitors.attach(ctx.state);
      const visible = visibleOf(ctx);
      const take = () => pending.splice(0);
      const core = coreTools(catalogue, visible, isolation, opts.discoverLimit).map((t) => withEvents(t, take));
      const direct = new Map<string, Tool>();
      try {
        const r = await ctx.flow({
          stage: 'agent',
          memory: true,
          system: ctx.promptOverride ?? system,
          limits: { ...LIMITS, ...opts.limits },
          tools: () => [
            ...core,
            ...visible.list().flatMap((name) => {
              let t = direct.get(name);
              const base = catalogue.registry.get(name);
              if (!t && base) direct.set(name, (t = withEvents(isolated(base, isolation), take)));
              return t ? [t] : [];
            }),
          ],
        });
        return { reason: r.reason, final: r.final, ...(r.error ? { error: r.error } : {}) };
      } finally {
        monitors.stopAll();
        detach();
      }
    },
  };
}
