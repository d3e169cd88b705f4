// A case's end state, recorded beside its trace so it can be scored again without
// running it again (skillbridge rescore): the world's snapshot just before
// scoring (physics and bookkeeping), the robot's world-model edits, and
// everything else a suite's scorer reads — the event stream with its simulated
// times, the turn's result and what an afterTurn hook found. Gzipped JSON.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { z } from 'zod';
import type { FlowEvent } from '../../agents/runtime/events';
import type { TurnResult } from '../../agents/runtime/conversation';
import type { WorldModelEdits } from '../../robot/sim/world-model';
import type { WorldSnapshot } from '../../sim/world/types';

export const END_STATE_FORMAT = 1;

const EndStateFile = z.object({
  format: z.literal(END_STATE_FORMAT),
  caseId: z.string(),
  trial: z.number().int(),
  /** The hash of the world as snapshotted: a restore must give it back. */
  hash: z.string(),
  /** The version of the scorer that scored the case (absent in files that predate it). */
  scorer: z.string().optional(),
  world: z.object({ physics: z.string(), state: z.string() }),
  worldModel: z.object({ added: z.array(z.unknown()), overrides: z.record(z.string(), z.record(z.string(), z.unknown())) }).nullable(),
  events: z.array(z.unknown()),
  times: z.array(z.number()),
  turn: z.record(z.string(), z.unknown()),
  extra: z.record(z.string(), z.unknown()),
});

export interface EndState {
  caseId: string;
  trial: number;
  hash: string;
  /** The scorer's version when the case was scored (eval/runner/cases.ts scorerVersion). */
  scorer?: string;
  world: WorldSnapshot;
  worldModel: WorldModelEdits | null;
  events: FlowEvent[];
  times: number[];
  turn: TurnResult;
  extra: Record<string, unknown>;
}

/** The end-state file of a case × trial's trace. */
export function endStateFile(tracePath: string): string {
  return tracePath.replace(/\.jsonl$/, '') + '.end.json.gz';
}

export function writeEndState(file: string, s: EndState): void {
  const body = {
    format: END_STATE_FORMAT,
    ...s,
    world: { physics: Buffer.from(s.world.physics).toString('base64'), state: s.world.state },
  };
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, gzipSync(JSON.stringify(body), { level: 6 }));
}

/** Reads an end state; throws with the file and the field when it is damaged or of another format. */
export function readEndState(file: string): EndState {
  let raw: unknown;
  try {
    raw = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
  } catch (e) {
    throw new Error(`${file}: not a readable end state (${e instanceof Error ? e.message : String(e)})`);
  }
  const r = EndStateFile.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`${file}: ${i.path.join('.') || 'the file'}: ${i.message}`);
  }
  const d = r.data;
  return {
    caseId: d.caseId,
    trial: d.trial,
    hash: d.hash,
    ...(d.scorer !== undefined ? { scorer: d.scorer } : {}),
    world: { physics: new Uint8Array(Buffer.from(d.world.physics, 'base64')), state: d.world.state },
    worldModel: d.worldModel as WorldModelEdits | null,
    events: d.events as FlowEvent[],
    times: d.times,
    turn: d.turn as unknown as TurnResult,
    extra: d.extra,
  };
}
