// The runs of a session, kept so they can be listed, exported and watched again:
// a summary per run from its run events, and the poses recorded while it ran
// (pose-recorder.ts), in memory for the last runs and beside the trace file
// (`<runId>.poses.json`) when the session writes traces.
import type { AppEvent, ImportedTrace, SceneMeta } from '../../contract/schemas';
import { type OutcomeTally, emptyTally, runOutcome, tallyEvent } from '../../contract/run-outcome';
import type { RunReplay, RunSummary } from '../../contract/teaching';
import { type PoseRecording, PoseRecorder, type RecorderOptions, readRecording, recordingInfo, writeRecording } from './pose-recorder';

interface Archived {
  summary: RunSummary;
  tally: OutcomeTally;
  recorder: PoseRecorder | undefined;
  recording: PoseRecording | undefined;
}

export interface RunArchiveOptions extends RecorderOptions {
  /** Poses are written here beside the traces; none when unset. */
  traceDir?: string;
  /** Runs kept in memory (default 20, as many as their traces). */
  keep?: number;
  log?: (line: string) => void;
}

export class RunArchive {
  private readonly runs = new Map<string, Archived>();
  private readonly keep: number;

  constructor(private readonly opts: RunArchiveOptions = {}) {
    this.keep = opts.keep ?? 20;
  }

  /**
   * Follows the session's events: a run starts recording the scene drawn now
   * (`meta`, `frameLength` of its pose frames), counts its calls and stops at its end.
   */
  onEvent(e: AppEvent, scene: { meta: SceneMeta; frameLength: number } | undefined): void {
    if (e.type !== 'run') return;
    const ev = e.event;
    if (ev.kind === 'started') {
      this.runs.set(ev.runId, {
        summary: {
          runId: ev.runId,
          message: ev.message,
          workflow: ev.workflow,
          model: ev.model,
          scene: scene?.meta.id ?? null,
          startedAt: new Date().toISOString(),
          running: true,
          reason: null,
          toolCalls: 0,
          durationMs: 0,
          poses: scene !== undefined,
        },
        recorder: scene ? new PoseRecorder(scene.meta, scene.frameLength, this.opts) : undefined,
        recording: undefined,
        tally: emptyTally(),
      });
      while (this.runs.size > this.keep) this.runs.delete(this.runs.keys().next().value!);
      return;
    }
    const run = this.runs.get(ev.runId);
    if (!run) return;
    run.tally = tallyEvent(run.tally, ev);
    if (ev.kind === 'tool_call') run.summary = { ...run.summary, toolCalls: run.summary.toolCalls + 1 };
    if (ev.kind === 'final') {
      const outcome = runOutcome(run.tally);
      run.summary = { ...run.summary, running: false, reason: ev.reason, durationMs: ev.durationMs, ...(outcome ? { outcome } : {}) };
      this.finish(run);
    }
  }

  /** Whether a running run records poses (the stream packs frames for it). */
  recording(): boolean {
    for (const r of this.runs.values()) if (r.recorder) return true;
    return false;
  }

  /** A pose frame the session published: every running run's recorder gets it. */
  onFrame(frame: Float32Array): void {
    for (const r of this.runs.values()) r.recorder?.add(frame);
  }

  /** The scene was replaced: recordings of runs still going end here. */
  sceneReplaced(): void {
    for (const r of this.runs.values()) if (r.recorder) this.finish(r);
  }

  private finish(run: Archived): void {
    const rec = run.recorder?.finish();
    run.recorder = undefined;
    if (!rec) return;
    run.recording = rec;
    const dir = this.opts.traceDir;
    if (dir)
      writeRecording(dir, run.summary.runId, rec).catch((e: unknown) =>
        this.opts.log?.(`the poses of run ${run.summary.runId} were not written: ${(e as Error).message}`),
      );
  }

  list(): RunSummary[] {
    return [...this.runs.values()].map((r) => r.summary);
  }

  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  /** A run's trace (read by the caller) with its poses: from memory, else from the file beside the trace. */
  async replay(runId: string, trace: ImportedTrace): Promise<RunReplay> {
    const run = this.runs.get(runId);
    let rec = run?.recording ?? run?.recorder?.snapshot();
    if (!rec && this.opts.traceDir) rec = await readRecording(this.opts.traceDir, runId);
    const h = trace.header;
    const summary: RunSummary = run?.summary ?? {
      runId,
      message: '',
      workflow: typeof h['workflow'] === 'string' ? h['workflow'] : '',
      model: typeof h['model'] === 'string' ? h['model'] : '',
      scene: typeof h['scene'] === 'string' ? h['scene'] : null,
      startedAt: typeof h['t'] === 'string' ? h['t'] : '',
      running: false,
      reason: null,
      toolCalls: trace.records.filter((r) => r.type === 'tool_call').length,
      durationMs: 0,
      poses: rec !== undefined,
    };
    return { run: summary, trace, poses: rec ? recordingInfo(rec) : null };
  }
}
