// Requests generated from a door's own schema (a zod schema turned into JSON
// Schema, an MCP tool's input schema, an OpenAPI body): the generator follows
// objects, arrays, unions, enums and numbers, and puts a hostile string in
// string fields (or, half the time, a value the schema accepts), so each new
// field of a door is attacked without anyone listing it.
import fc from 'fast-check';

export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | false;
  prefixItems?: JsonSchema[];
  minItems?: number;
  maxItems?: number;
  enum?: unknown[];
  const?: unknown;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  default?: unknown;
};

export interface FromSchemaOptions {
  /** Strings for string fields (the hostile mix). */
  hostile: fc.Arbitrary<string>;
  /** The chance (0…1) a string field gets a hostile value rather than one the schema accepts (0: every value in range). */
  hostileShare?: number;
  /** Give every optional field a value (a base for the sweep, which then attacks each string in turn). */
  allKeys?: boolean;
}

/** An arbitrary of values for `schema`. */
export function fromSchema(schema: JsonSchema, o: FromSchemaOptions): fc.Arbitrary<unknown> {
  const root = schema;
  const share = o.hostileShare ?? 0.6;
  const go = (s: JsonSchema, depth: number): fc.Arbitrary<unknown> => {
    if (s.$ref) {
      const name = s.$ref.replace(/^#\/(\$defs|definitions)\//, '');
      const target = root.$defs?.[name] ?? root.definitions?.[name];
      return target && depth < 8 ? go(target, depth + 1) : fc.constant(null);
    }
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const union = s.oneOf ?? s.anyOf;
    if (union?.length) return fc.oneof(...union.map((u) => go(u, depth + 1)));
    if (s.allOf?.length) return go(Object.assign({}, ...s.allOf) as JsonSchema, depth + 1);
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case 'object': {
        const props = s.properties ?? {};
        const req = new Set(s.required ?? []);
        const shape: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, v] of Object.entries(props)) shape[k] = depth < 6 ? go(v, depth + 1) : fc.constant(null);
        const keys = Object.keys(props);
        if (!keys.length) return fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
        return o.allKeys ? fc.record(shape) : fc.record(shape, { requiredKeys: keys.filter((k) => req.has(k)) });
      }
      case 'array': {
        if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => go(p, depth + 1)));
        const item = s.items && depth < 6 ? go(s.items, depth + 1) : fc.jsonValue({ maxDepth: 1 });
        return fc.array(item, { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, 4) });
      }
      case 'string': {
        const plausible = s.pattern
          ? fc.stringMatching(new RegExp(s.pattern)).filter((x) => x.length <= (s.maxLength ?? 200) && x.length >= (s.minLength ?? 0))
          : fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 30, 30) });
        if (share <= 0) return plausible;
        return fc.oneof(
          { weight: Math.round(share * 10), arbitrary: o.hostile },
          { weight: Math.round((1 - share) * 10), arbitrary: plausible },
        );
      }
      case 'integer':
      case 'number': {
        const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -1e6);
        const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 1e6);
        const inRange =
          type === 'integer' ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.double({ min, max, noNaN: true });
        // A base the sweep starts from stays in range: only its strings are attacked.
        if (share <= 0) return inRange;
        return fc.oneof({ weight: 8, arbitrary: inRange }, { weight: 1, arbitrary: fc.constantFrom(-1, 0, 1e12, -1e12) });
      }
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        // Any value (a tool's free arguments): JSON with hostile strings inside.
        return fc.oneof(fc.jsonValue({ maxDepth: 2 }), o.hostile, fc.dictionary(fc.string({ maxLength: 12 }), o.hostile, { maxKeys: 3 }));
    }
  };
  return go(schema, 0);
}

/** Every string in a value, with its path (object keys and array indexes). */
export function stringLeaves(value: unknown, at: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === 'string') return [at];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringLeaves(v, [...at, i]));
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...at, k]));
  return [];
}

/** A copy of `value` with the string at `path` replaced. */
export function withLeaf(value: unknown, path: Array<string | number>, leaf: string): unknown {
  if (!path.length) return leaf;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? withLeaf(v, rest, leaf) : v));
  const o = value as Record<string, unknown>;
  return { ...o, [head!]: withLeaf(o[head as string], rest, leaf) };
}
