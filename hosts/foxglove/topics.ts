// The topics a Skillbridge recording or live view carries, each with its schema:
// Foxglove's schemas where one fits, Skillbridge's own (from the trace's zod
// schemas) for facts and trace records. The MCAP export and the live server
// publish the same topics, so a layout made for one opens the other.
import { z } from 'zod';
import { TraceHeaderSchema, TraceRecordSchema } from '../../agents/runtime/trace';
import { SCHEMAS } from './messages';

const FactsSchema = z.object({
  timestamp: z.object({ sec: z.number().int(), nsec: z.number().int() }),
  /** Simulated seconds. */
  time: z.number(),
  facts: z.array(z.string()).describe('the semantic facts that hold in the world (ground truth, the operator view)'),
});

const json = (schema: z.ZodType, title: string): object => ({ ...z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }), title });

export const TOPICS = {
  scene: { topic: '/scene', schema: 'foxglove.SceneUpdate' },
  tf: { topic: '/tf', schema: 'foxglove.FrameTransforms' },
  joints: { topic: '/joint_states', schema: 'foxglove.JointStates' },
  camera: { topic: '/camera/image', schema: 'foxglove.CompressedImage' },
  log: { topic: '/log', schema: 'foxglove.Log' },
  facts: { topic: '/facts', schema: 'skillbridge.Facts' },
  trace: { topic: '/trace', schema: 'skillbridge.TraceRecord' },
  header: { topic: '/trace/header', schema: 'skillbridge.TraceHeader' },
} as const;

export type TopicKey = keyof typeof TOPICS;

const OWN: Record<string, object> = {
  'skillbridge.Facts': json(FactsSchema, 'skillbridge.Facts'),
  'skillbridge.TraceRecord': json(TraceRecordSchema, 'skillbridge.TraceRecord'),
  'skillbridge.TraceHeader': json(TraceHeaderSchema, 'skillbridge.TraceHeader'),
};

export function jsonSchemaOf(name: string): object {
  const s = (SCHEMAS as Record<string, object>)[name] ?? OWN[name];
  if (!s) throw new Error(`no schema named ${name}`);
  return s;
}

/** Where messages go: an MCAP file, or the live server's channels. */
export type Publish = (key: TopicKey, logTimeNs: bigint, value: unknown) => Promise<void> | void;
