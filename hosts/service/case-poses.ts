// The poses of an evaluated case for its replay in 3D: the case's world as it
// started (built again as the evaluation builds it, kept only if it hashes to
// the start its result recorded) and as it ended (its recorded end state
// restored, kept only if it hashes to what was recorded). Only those two frames:
// the motion between was not recorded, and nothing is run again.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { FLOATS_PER_POSE, FRAME_HEADER, frameLength, writeHeader } from '../../contract/frames';
import type { PoseRecordingInfo } from '../../contract/teaching';
import { endStateFile, readEndState } from '../../eval/core/end-state';
import { buildCaseWorld } from '../../eval/core/world';
import type { ResultRecord, RunRecord } from '../../eval/results/records';
import { loadCases } from '../../eval/runner/cases';
import { findSuite } from '../../eval/suites/index';
import { PosePacker } from '../../sim/world/stream';
import type { WorldSnapshot } from '../../sim/world/types';
import { recordingInfo } from './pose-recorder';
import { buildSceneMeta, writeJoints } from './scene-meta';

const GENERATION = 1;

function snapshotHash(s: WorldSnapshot): string {
  return createHash('sha256').update(s.physics).update(s.state).digest('hex').slice(0, 16);
}

/**
 * The start and end frames of a case × trial, stamped at `startMs` and `endMs`
 * (wall clock, as the trace's records are); null when the case or its worlds
 * cannot be had as they were (the suite or scene changed, no end state recorded).
 */
export async function casePoses(
  run: RunRecord,
  row: ResultRecord,
  tracePath: string,
  startMs: number,
  endMs: number,
): Promise<PoseRecordingInfo | null> {
  const suite = findSuite(run.suite);
  if (!suite) return null;
  const c = (await loadCases(suite, {})).cases.find((x) => x.id === row.caseId);
  if (!c) return null;
  const cw = await buildCaseWorld(c.world, { seed: run.seed });
  try {
    if (row.worldHashStart && cw.hash !== row.worldHashStart) return null;
    const { meta, entries } = buildSceneMeta(cw.world, GENERATION);
    const joints = meta.robot.jointNames.length;
    const length = frameLength(entries.length, joints);
    const packer = new PosePacker(entries);
    const pack = (seq: number, wallMs: number): Float32Array => {
      const sim = cw.control.world;
      const frame = new Float32Array(length);
      packer.pack(sim, frame.subarray(FRAME_HEADER, FRAME_HEADER + entries.length * FLOATS_PER_POSE));
      writeJoints(sim, frame, FRAME_HEADER + entries.length * FLOATS_PER_POSE, joints);
      writeHeader(frame, GENERATION, seq, sim.time, wallMs);
      return frame;
    };
    const frames = [pack(1, startMs)];
    const file = endStateFile(tracePath);
    if (existsSync(file)) {
      const end = readEndState(file);
      if (snapshotHash(end.world) === end.hash) {
        cw.control.restore(end.world);
        frames.push(pack(2, Math.max(startMs + 1, endMs)));
      }
    }
    const hz = frames.length / Math.max(1, (endMs - startMs) / 1000);
    return recordingInfo({ meta, hz, frameLength: length, frames });
  } finally {
    cw.control.dispose();
  }
}
