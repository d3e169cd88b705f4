// What MCP clients did to each robot, as the same JSONL trace the agent runs
// write: one file per robot per server run (a header with the scene and seed, a
// note naming the robot and its tool set, then tool_call, approval and
// tool_result records). `skillbridge trace` reads it; `skillbridge export --mcap`
// replays it. Tool names are recorded without the robot prefix.
import { join } from 'node:path';
import { jsonSafe } from '../../base/json';
import type { ApprovalDecision } from '../../agents/runtime/approval';
import type { DivergenceReport, SafetyDecision } from '../../agents/runtime/safety';
import { JsonlSink, Trace, newRunId, type ToolStatus } from '../../agents/runtime/trace';
import type { Fleet } from './fleet';

export class McpTraceLog {
  private readonly traces = new Map<string, Trace>();
  readonly paths: string[] = [];

  constructor(dir: string, fleet: Fleet, sources: ReadonlyMap<string, { seed: number | null }>) {
    const runId = newRunId();
    for (const r of fleet.robots) {
      const path = join(dir, `${runId}-${r.name}.jsonl`);
      const trace = new Trace({
        header: {
          runId: `${runId}-${r.name}`,
          scene: r.robot.info.scene.id,
          workflow: 'mcp',
          model: null,
          seed: sources.get(r.name)?.seed ?? null,
        },
        sinks: [new JsonlSink(path)],
      });
      trace.record({
        type: 'note',
        text: `MCP server: robot "${r.name}" (${r.robot.info.name}) with tool set ${r.set}${fleet.readOnly ? ', read-only' : ''}`,
        data: { robot: r.name, toolSet: r.set, readOnly: fleet.readOnly, tools: r.tools.map((t) => t.name) },
      });
      this.traces.set(r.name, trace);
      this.paths.push(path);
    }
  }

  call(robot: string, id: string, tool: string, args: unknown, client: string | undefined): void {
    this.traces.get(robot)?.record({
      type: 'tool_call',
      id,
      name: tool,
      arguments: JSON.stringify(args ?? {}),
      iteration: 0,
      ...(client ? { stage: `mcp:${client}` } : {}),
    });
  }

  approval(robot: string, id: string, tool: string, args: unknown, d: ApprovalDecision): void {
    if (d.decision === 'auto') return;
    this.traces.get(robot)?.record({
      type: 'approval',
      id,
      tool,
      args: jsonSafe(args) ?? null,
      decision: d.decision,
      ...(d.note ? { note: d.note } : {}),
      ...('waitedMs' in d ? { waitedMs: d.waitedMs } : {}),
    });
  }

  /** The safety chain's decision about one skill an MCP call asked for. */
  safety(robot: string, d: SafetyDecision): void {
    this.traces.get(robot)?.record({ type: 'safety', ...(jsonSafe(d) as SafetyDecision) });
  }

  divergence(robot: string, d: DivergenceReport): void {
    this.traces.get(robot)?.record({ type: 'divergence', ...(jsonSafe(d) as DivergenceReport) });
  }

  result(
    robot: string,
    id: string,
    tool: string,
    r: { status: ToolStatus; ok: boolean; text: string; durationMs: number; data?: unknown },
  ): void {
    const data = jsonSafe(r.data);
    this.traces.get(robot)?.record({
      type: 'tool_result',
      id,
      name: tool,
      ok: r.ok,
      status: r.status,
      ...(r.ok ? { result: r.text } : { error: r.text }),
      durationMs: r.durationMs,
      ...(data !== undefined ? { data } : {}),
    });
  }

  close(): void {
    for (const t of this.traces.values()) t.close();
  }
}
