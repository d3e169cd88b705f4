// What a model received in a case, and the world's vocabulary, for scorers that
// credit an answer only for facts a tool revealed in that case: the contents of
// the tool calls that succeeded, less the model's own arguments they echo (a
// failed call's message echoes them and nothing more, so it reveals nothing) and the inputs a workflow gave the model other
// than the person's instruction (RAIDER's whole-scene observation). The words the
// person said are left out: an id the instruction never names can only have come
// from a tool.
import type { FlowEvent } from '../../agents/runtime/events';
import type { SimControl } from '../../robot/sim/control';
import { type CallRecord, callsOf } from './events';

/** The calls that succeeded (status ok), in order. */
export function okCalls(events: readonly FlowEvent[]): CallRecord[] {
  return callsOf(events).filter((c) => c.ok && c.status === 'ok');
}

/** Every string and number among a call's arguments: what its result may echo back. */
function argValues(v: unknown): string[] {
  if (typeof v === 'string') return v.trim() ? [v.trim()] : [];
  if (typeof v === 'number' && Number.isFinite(v)) return [String(v)];
  if (Array.isArray(v)) return v.flatMap(argValues);
  if (v && typeof v === 'object') return Object.values(v).flatMap(argValues);
  return [];
}

/**
 * A result with the call's own arguments taken out (whole words, an id's digits
 * included): "Success: said: mug_1", a setter's "owner = Anna" or a distance to
 * "mug" tell the model nothing it did not say itself.
 */
export function withoutEcho(text: string, args: unknown): string {
  let out = text;
  for (const v of [...new Set(argValues(args))].sort((a, b) => b.length - a.length)) {
    const esc = v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(`(^|[^a-z0-9_.])${esc}(?=$|[^a-z0-9_.]|\\.(?![0-9]))`, 'gi'), '$1 ');
  }
  return out;
}

/**
 * The text of every successful tool result, less what echoes the call's own
 * arguments, and of every input given to the model, the instruction taken out.
 */
export function receivedText(events: readonly FlowEvent[], instruction: string): string {
  const parts: string[] = [];
  for (const c of okCalls(events)) {
    parts.push(withoutEcho(c.content, c.args));
    if (c.data !== undefined) parts.push(withoutEcho(JSON.stringify(c.data), c.args));
  }
  const seen = new Set<string>();
  for (const e of events) {
    if (e.type !== 'history') continue;
    for (const m of e.messages) {
      if (m.role !== 'user' || typeof m.content !== 'string' || seen.has(m.content)) continue;
      seen.add(m.content);
      parts.push(m.content.split(instruction).join(' '));
    }
  }
  return parts.join('\n');
}

/**
 * Every object of the world as the names a precise answer could use for it (its id
 * and display name), and every place by its id: naming one that is not asked for
 * makes an answer imprecise.
 */
export function worldVocabulary(control: SimControl, places: ReadonlyArray<{ id: string }>): string[][] {
  const objects = [...control.world.entities.values()].map((e) => [...new Set([e.id, e.spec.name].filter((x): x is string => Boolean(x)))]);
  return [...objects, ...places.map((p) => [p.id])];
}
