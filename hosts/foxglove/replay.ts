// A trace records what the model and the tools did, not where every body was.
// The poses come from replaying the trace's tool calls in a fresh world built
// from the header's scene and seed: the simulator is deterministic (same scene,
// seed and calls, same world), so the replay moves every body as the run did.
// Each replayed result is compared with the recorded one; a difference (a run
// with --noise, events injected from the app, another version) is reported as a
// divergence, never hidden. Calls that did not run (refused, invalid, unknown)
// are not replayed; calls that were interrupted part-way cannot be and are
// listed. Tools that are not the robot's (a sub-agent, an MCP server's) are
// skipped; a sub-agent's own calls are in the trace and are replayed.
//
// Timing: the recording's clock starts at the header's time; each record is
// placed at its own time, and a replayed skill advances the clock by the
// simulated seconds it took, so motions play at their real speed and the
// order of records is kept even when a headless run was faster than real time.
import { z } from 'zod';
import type { ReadTrace, TraceRecord } from '../../agents/runtime/trace';
import { buildToolSet, setsFor } from '../../agents/tools/sets';
import type { Tool } from '../../agents/tools/tool';
import type { Robot } from '../../robot/robot';
import { RobotSourceError } from '../../robot/source';
import { openRobot } from '../../robot/sources';
import { LOG, bodiesOf, compressedImage, frameTransforms, jointStates, logMessage, sceneUpdate, timeOf } from './messages';
import { SimFeed } from './sim-feed';
import type { PublishPictures } from './pictures';
import type { Publish } from './topics';

export class ReplayError extends Error {
  override name = 'ReplayError';
}

export interface ReplaySummary {
  scene: string;
  seed: number;
  toolCalls: number;
  replayed: number;
  skipped: Array<{ id: string; name: string; reason: string }>;
  diverged: Array<{ id: string; name: string; recorded: string; replayed: string }>;
  frames: number;
  images: number;
}

/** Statuses of calls that ran to the end in the original run. */
const RAN = new Set(['ok', 'failed']);
const MS = 1_000_000n;

const SetNote = z.object({ toolSet: z.string() });

async function findTool(robot: Robot, name: string, args: string, hint: string | undefined): Promise<Tool | undefined> {
  const order = [...new Set([...(hint ? [hint] : []), robot.info.scene.toolSet, ...setsFor(robot).map((s) => s.id)])];
  for (const id of order) {
    let tools: readonly Tool[];
    try {
      // Rebuilt per call: some sets are made from what the robot sees now (MAYA's pick_<x>).
      tools = (await buildToolSet(id, robot)).list();
    } catch {
      continue;
    }
    const tool = tools.find((t) => t.name === name && t.parse(args).ok);
    if (tool) return tool;
  }
  return undefined;
}

function recordText(r: Extract<TraceRecord, { type: 'tool_result' }>): string {
  return r.result ?? r.error ?? '';
}

export function describeRecord(r: TraceRecord): { level: number; text: string } {
  switch (r.type) {
    case 'message':
      return {
        level: LOG.INFO,
        text: `${r.role}: ${(r.content ?? '').slice(0, 2000)}${r.tool_calls?.length ? ` [calls ${r.tool_calls.map((c) => c.function.name).join(', ')}]` : ''}`,
      };
    case 'tool_call':
      return { level: LOG.INFO, text: `→ ${r.name} ${r.arguments}` };
    case 'tool_result':
      return { level: r.ok ? LOG.INFO : LOG.WARNING, text: `← ${r.name} ${r.status}: ${recordText(r).slice(0, 2000)}` };
    case 'warning':
      return { level: LOG.WARNING, text: `${r.code}: ${r.message}` };
    case 'error':
      return { level: LOG.ERROR, text: r.message };
    case 'approval':
      return { level: LOG.INFO, text: `approval of ${r.tool}: ${r.decision}${r.note ? ` (${r.note})` : ''}` };
    case 'final':
      return { level: LOG.INFO, text: `final: ${r.answer}` };
    case 'stop':
      return { level: LOG.WARNING, text: `stop (${r.reason}): ${r.message}` };
    default:
      return { level: LOG.DEBUG, text: r.type };
  }
}

/** Replays one session's traces (turns in order) and publishes poses, joints, images, facts and every record. */
export async function replayTraces(
  traces: readonly ReadTrace[],
  publish: Publish,
  o: { cameraWidth?: number; pictures?: PublishPictures } = {},
): Promise<ReplaySummary> {
  const header = traces[0]?.header;
  if (!header) throw new ReplayError('no trace to export');
  if (!header.scene) throw new ReplayError(`the trace ${header.runId} names no scene, so its world cannot be rebuilt`);
  for (const t of traces.slice(1)) {
    if (t.header.scene !== header.scene)
      throw new ReplayError(`the traces are from different scenes (${header.scene}, ${t.header.scene}); export one run at a time`);
  }
  const seed = header.seed ?? 1;
  let opened;
  try {
    opened = await openRobot({ kind: 'sim', scene: header.scene, seed });
  } catch (e) {
    if (e instanceof RobotSourceError) throw new ReplayError(`the scene of the trace cannot be loaded: ${e.message}`);
    throw e;
  }
  const { robot, sim } = opened;
  const feed = new SimFeed(sim);
  const bodies = bodiesOf(feed.meta);
  const summary: ReplaySummary = { scene: header.scene, seed, toolCalls: 0, replayed: 0, skipped: [], diverged: [], frames: 0, images: 0 };
  const start = BigInt(Date.parse(header.startedAt) || Date.now()) * MS;
  let clock = start;
  let facts = '';
  const queue: Array<() => Promise<void> | void> = [];
  const flush = async () => {
    for (const job of queue.splice(0)) await job();
  };
  const poses = (at: bigint) => {
    const frame = feed.frame();
    const camera = feed.camera();
    queue.push(() => publish('tf', at, frameTransforms(bodies, frame, timeOf(at), [camera])));
    const joints = jointStates(feed.meta, frame, timeOf(at));
    if (joints) queue.push(() => publish('joints', at, joints));
    summary.frames++;
  };
  const look = (at: bigint) => {
    queue.push(() => publish('camera', at, compressedImage(feed.picture(o.cameraWidth ?? 160), timeOf(at))));
    summary.images++;
    const now = feed.facts();
    if (now.join('\n') !== facts) {
      facts = now.join('\n');
      queue.push(() => publish('facts', at, { timestamp: timeOf(at), time: sim.time(), facts: now }));
    }
  };
  const note = (level: number, text: string) => {
    const t = clock;
    queue.push(() => publish('log', t, logMessage(level, 'replay', text, timeOf(t))));
  };

  // Poses while a skill runs, every 0.1 simulated seconds (the world's process hook), on the replay clock.
  let sampling: { clock: bigint; sim: number } | undefined;
  sim.world.processHooks.push(() => {
    if (!sampling) return;
    clock = sampling.clock + BigInt(Math.round((sim.time() - sampling.sim) * 1000)) * MS;
    poses(clock);
  });
  const unsubscribe = robot.events.subscribe((e) => {
    const t = clock;
    queue.push(() => publish('log', t, logMessage(LOG.WARNING, 'robot', `${e.type}: ${e.text}`, timeOf(t))));
  });

  try {
    queue.push(() => publish('scene', start, sceneUpdate(feed.meta, bodies, timeOf(start))));
    poses(start);
    look(start);
    const state = new Map<string, unknown>();
    for (const [ti, trace] of traces.entries()) {
      const h = clock;
      queue.push(() => publish('header', h, trace.header));
      const results = new Map(trace.records.flatMap((r) => (r.type === 'tool_result' ? [[r.id, r] as const] : [])));
      let hint: string | undefined;
      for (const r of trace.records) {
        const at = BigInt(Date.parse(r.t) || 0) * MS;
        if (at > clock) clock = at;
        const t = clock;
        const d = describeRecord(r);
        queue.push(() => publish('trace', t, r));
        queue.push(() => publish('log', t, logMessage(d.level, r.stage ?? 'agent', d.text, timeOf(t))));
        if (r.type === 'tool_result' && r.images?.length && o.pictures) {
          const pictures = o.pictures;
          queue.push(() => pictures(ti, r, t));
        }
        if (r.type === 'note') hint = SetNote.safeParse(r.data).data?.toolSet ?? hint;
        if (r.type !== 'tool_call') continue;
        summary.toolCalls++;
        const result = results.get(r.id);
        const skip = (reason: string) => {
          summary.skipped.push({ id: r.id, name: r.name, reason });
          note(LOG.DEBUG, `not replayed: ${r.name} (${reason})`);
        };
        if (!result) {
          skip('no result recorded');
          continue;
        }
        if (!RAN.has(result.status)) {
          skip(
            result.status === 'stopped' || result.status === 'preempted'
              ? `${result.status} part-way in the run`
              : `did not run (${result.status})`,
          );
          continue;
        }
        const tool = await findTool(robot, r.name, r.arguments, hint);
        if (!tool) {
          skip("not one of this robot's tools (a sub-agent's or another server's)");
          continue;
        }
        sampling = { clock, sim: sim.time() };
        const out = await tool.call(r.arguments, { robot, signal: new AbortController().signal, state });
        clock = sampling.clock + BigInt(Math.round((sim.time() - sampling.sim) * 1000)) * MS;
        sampling = undefined;
        summary.replayed++;
        poses(clock);
        look(clock);
        if (out.ok !== result.ok || out.content !== recordText(result)) {
          summary.diverged.push({ id: r.id, name: r.name, recorded: recordText(result), replayed: out.content });
          note(
            LOG.ERROR,
            `replay diverged at ${r.name} (${r.id}): the run said "${recordText(result).slice(0, 300)}", the replay says "${out.content.slice(0, 300)}"`,
          );
        }
        await flush();
      }
    }
    note(
      summary.diverged.length ? LOG.ERROR : LOG.INFO,
      `replayed ${summary.replayed} of ${summary.toolCalls} tool calls in ${header.scene} (seed ${seed}); ${summary.skipped.length} not replayed, ${summary.diverged.length} diverged`,
    );
    await flush();
  } finally {
    unsubscribe();
    await opened.close();
  }
  return summary;
}
