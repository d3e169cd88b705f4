// What a script file (`skillbridge call --script FILE`, the truth audit's reproductions)
// may hold: tool calls and exogenous events in order (script.ts runs them). Loaded only
// where a script is read from a file.
import { z } from 'zod';

const Position = z.tuple([z.number(), z.number(), z.number()]);

export const ScriptEvent = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('estop_pressed') }),
  z.strictObject({ type: z.literal('estop_released') }),
  z.strictObject({ type: z.literal('person_said'), person: z.string().min(1).optional(), text: z.string().min(1) }),
  z.strictObject({ type: z.literal('object_moved'), object: z.string().min(1), to: Position, by: z.string().optional() }),
  z.strictObject({ type: z.literal('set_battery'), percent: z.number().min(0).max(100) }),
]);
export type ScriptEvent = z.infer<typeof ScriptEvent>;

export const CallStep = z.strictObject({ tool: z.string().min(1), args: z.record(z.string(), z.unknown()).default({}) });
export const EventStep = z.strictObject({
  event: ScriptEvent,
  during: z.number().positive().max(600).optional().describe('inject this many simulated seconds into the next call'),
});
export const ScriptStep = z.union([CallStep, EventStep]);
export type ScriptStep = z.infer<typeof ScriptStep>;
export type CallStep = z.infer<typeof CallStep>;
export type EventStep = z.infer<typeof EventStep>;
export const Script = z.array(ScriptStep).min(1, 'the script must list at least one step');
