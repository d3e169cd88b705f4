// skillbridge export TRACE… --mcap FILE: a recorded run as an MCAP file for
// Foxglove or Lichtblick. The poses come from replaying the trace's tool calls in
// a fresh world (hosts/foxglove/replay.ts says why and how); several traces of
// one session (its turns) replay in one world, in turn order.
import { checkWritableFile } from '../out-files';
import { type ReadTrace, TraceFormatError, readTrace } from '../../../agents/runtime/trace';
import { UserFileError } from '../../../base/user-file';
import { McapRecorder } from '../../foxglove/mcap';
import { exportReported, isRobotTrace } from '../../foxglove/reported';
import { picturesBeside } from '../../foxglove/pictures';
import { ReplayError, replayTraces } from '../../foxglove/replay';
import { TOPICS, jsonSchemaOf } from '../../foxglove/topics';
import { type Parsed, UsageError, intFlag, stringFlag } from '../args';
import { type Output, json } from '../output';

function load(path: string): ReadTrace {
  try {
    return readTrace(path);
  } catch (e) {
    if (e instanceof TraceFormatError) throw new UsageError(`${e.message} (not a Skillbridge trace, or damaged)`);
    if (e instanceof UserFileError) {
      if (e.reason.startsWith('a folder')) throw new UsageError(`${path} is a folder; name the trace files (e.g. ${path}/*.jsonl)`);
      throw new UsageError(`cannot read ${path}: ${e.reason}`);
    }
    throw e;
  }
}

export async function exportCommand(p: Parsed, o: Output): Promise<number> {
  const out = stringFlag(p.flags, 'mcap');
  if (!out) throw new UsageError('name the output: skillbridge export TRACE --mcap FILE.mcap');
  checkWritableFile(out, '--mcap');
  if (!p.positionals.length) throw new UsageError('name a trace to export: skillbridge export traces/RUN.jsonl --mcap run.mcap');
  const width = intFlag(p.flags, 'width', 160);
  if (width < 16 || width > 640) throw new UsageError(`--width must be 16-640 pixels, got ${width}`);
  const traces = p.positionals.map(load);
  const session = traces[0]!.header.session;
  if (traces.length > 1 && traces.some((t) => t.header.session !== session || session === undefined)) {
    throw new UsageError('the traces are not turns of one session; export one run at a time, or the turns of one conversation');
  }
  traces.sort((a, b) => (a.header.turn ?? 0) - (b.header.turn ?? 0));
  const notes = traces.flatMap((t, i) => [
    ...(t.truncated ? [`${p.positionals[i]}: the last line was cut off and is left out`] : []),
    ...(t.skipped ?? []).map((s) => `${p.positionals[i]}:${s.line}: left out (${s.reason})`),
  ]);
  const rec = await McapRecorder.start('skillbridge');
  const h = traces[0]!.header;
  const publish = (key: keyof typeof TOPICS, t: bigint, value: unknown) =>
    rec.message(TOPICS[key].topic, TOPICS[key].schema, jsonSchemaOf(TOPICS[key].schema), t, value);
  // Each tool result's pictures, from beside the trace that names them.
  const pictures = picturesBeside(p.positionals, (topic, schema, t, value) => rec.message(topic, schema, jsonSchemaOf(schema), t, value));
  if (isRobotTrace(traces[0]!)) {
    // A real robot's run: no world to rebuild; the poses are those the robot reported.
    await rec.metadata('skillbridge', {
      runId: h.runId,
      robot: h.scene ?? '',
      workflow: h.workflow ?? '',
      model: h.model ?? '',
      startedAt: h.startedAt,
      skillbridge: h.versions.skillbridge,
      poses: 'as reported by the robot (tool results in the trace), under the "reported" frame; not simulated',
    });
    const rep = await exportReported(traces, publish, pictures.publish);
    const bytes = await rec.save(out);
    const channels = Object.fromEntries([...rec.counts.entries()].sort());
    if (p.flags['json']) json(o, { file: out, bytes, channels, reported: rep, pictures: pictures.counts, notes });
    else {
      o.out(
        `wrote ${out} (${(bytes / 1024).toFixed(0)} KiB): ${Object.entries(channels)
          .map(([k, n]) => `${k} ${n}`)
          .join(', ')}`,
      );
      o.out(`a run on the robot at ${rep.robot}: poses as it reported them (${rep.things.join(', ') || 'none reported'}), not simulated`);
      for (const n of notes) o.err(`skillbridge: ${n}`);
      for (const m of pictures.counts.missing) o.err(`skillbridge: picture ${m.ref} left out: ${m.why}`);
    }
    return 0;
  }
  await rec.metadata('skillbridge', {
    runId: h.runId,
    scene: h.scene ?? '',
    workflow: h.workflow ?? '',
    model: h.model ?? '',
    seed: String(h.seed ?? ''),
    startedAt: h.startedAt,
    skillbridge: h.versions.skillbridge,
    poses: 'replayed from the trace tool calls in a fresh world (scene and seed of the header)',
  });
  let summary;
  try {
    summary = await replayTraces(traces, publish, { cameraWidth: width, pictures: pictures.publish });
  } catch (e) {
    if (e instanceof ReplayError) throw new UsageError(e.message);
    throw e;
  }
  const bytes = await rec.save(out);
  const channels = Object.fromEntries([...rec.counts.entries()].sort());
  if (p.flags['json']) {
    json(o, { file: out, bytes, channels, replay: summary, pictures: pictures.counts, notes });
    return 0;
  }
  o.out(
    `wrote ${out} (${(bytes / 1024).toFixed(0)} KiB): ${Object.entries(channels)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  o.out(
    `replayed ${summary.replayed} of ${summary.toolCalls} tool calls in ${summary.scene} (seed ${summary.seed}); ${summary.skipped.length} not replayed`,
  );
  for (const s of summary.skipped) o.out(`  not replayed: ${s.name} #${s.id} — ${s.reason}`);
  for (const n of notes) o.err(`skillbridge: ${n}`);
  for (const m of pictures.counts.missing) o.err(`skillbridge: picture ${m.ref} left out: ${m.why}`);
  if (summary.diverged.length) {
    o.err(
      `skillbridge: the replay diverged from the run at ${summary.diverged.length} call(s) (see /log in the file); the poses after that are the replay's, not the run's`,
    );
    for (const d of summary.diverged)
      o.err(`  ${d.name} #${d.id}: run "${d.recorded.slice(0, 120)}" / replay "${d.replayed.slice(0, 120)}"`);
  }
  return 0;
}
