// Turns a tool's JSON Schema (what the model sees) into form fields, and form
// values back into arguments. Values the form cannot type (a word in a number
// field) are passed on as typed, so the tool's own validation answers, exactly
// as it would answer a model.
import type { JsonSchema } from '../../../contract/schemas';

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'vector' | 'json';

export interface Field {
  name: string;
  kind: FieldKind;
  required: boolean;
  description: string;
  options: string[];
  /** For vectors: how many numbers (0 when free length). */
  length: number;
  defaultValue: string;
}

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function typeOf(s: Record<string, unknown>): string | undefined {
  const t = s['type'];
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null');
  const any = s['anyOf'];
  if (Array.isArray(any)) {
    for (const a of any) {
      const inner = typeOf(asRecord(a));
      if (inner && inner !== 'null') return inner;
    }
  }
  return undefined;
}

function kindOf(s: Record<string, unknown>): { kind: FieldKind; options: string[]; length: number } {
  const en = s['enum'];
  if (Array.isArray(en) && en.every((x) => typeof x === 'string')) return { kind: 'enum', options: en as string[], length: 0 };
  if (typeof s['const'] === 'string') return { kind: 'enum', options: [s['const']], length: 0 };
  const t = typeOf(s);
  if (t === 'string' || t === 'number' || t === 'integer' || t === 'boolean') return { kind: t, options: [], length: 0 };
  if (t === 'array') {
    const prefix = s['prefixItems'] ?? (Array.isArray(s['items']) ? s['items'] : undefined);
    const items = Array.isArray(prefix) ? prefix.map(asRecord) : [asRecord(s['items'])];
    if (items.every((i) => typeOf(i) === 'number' || typeOf(i) === 'integer')) {
      const n = Array.isArray(prefix)
        ? prefix.length
        : typeof s['minItems'] === 'number' && s['minItems'] === s['maxItems']
          ? s['minItems']
          : 0;
      return { kind: 'vector', options: [], length: n };
    }
  }
  return { kind: 'json', options: [], length: 0 };
}

export function fieldsOf(schema: JsonSchema): Field[] {
  const props = asRecord(schema['properties']);
  const required = new Set(
    Array.isArray(schema['required']) ? (schema['required'] as unknown[]).filter((x): x is string => typeof x === 'string') : [],
  );
  return Object.entries(props).map(([name, raw]) => {
    const s = asRecord(raw);
    const { kind, options, length } = kindOf(s);
    const d = s['default'];
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof s['description'] === 'string' ? s['description'] : '',
      options,
      length,
      defaultValue: d === undefined ? '' : typeof d === 'string' ? d : JSON.stringify(d),
    };
  });
}

function parseValue(f: Field, raw: string): unknown {
  const text = raw.trim();
  switch (f.kind) {
    case 'string':
    case 'enum':
      return raw;
    case 'number':
    case 'integer': {
      const n = Number(text);
      return Number.isFinite(n) ? n : raw;
    }
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : raw;
    case 'vector': {
      const parts = text
        .replace(/^\[|\]$/g, '')
        .split(/[\s,]+/)
        .filter(Boolean);
      const nums = parts.map(Number);
      return nums.every(Number.isFinite) ? nums : raw;
    }
    case 'json':
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return raw;
      }
  }
}

/** Arguments from form values: empty fields are left out (a missing required one is the tool's to report). */
export function buildArgs(fields: readonly Field[], values: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const raw = values[f.name] ?? '';
    if (raw.trim() === '') continue;
    out[f.name] = parseValue(f, raw);
  }
  return out;
}

export function initialValues(fields: readonly Field[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, f.defaultValue]));
}
