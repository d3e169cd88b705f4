// The fields of a zod schema that can hold text, found by walking the schema
// itself (zod 4's `def`): what the boundary tests enumerate instead of listing
// fields by hand. A field's path is its keys joined with "."; union members and
// array elements keep their parent's path; `opaque` marks unknown/any values
// (passed on to another schema, e.g. a tool's own arguments).
import type { z } from 'zod';
import { type HostFieldKind, hostFieldKind } from '../../contract/host-fields';

export interface TextField {
  path: string;
  /** The host reference the field names (contract/host-fields.ts), if marked. */
  kind: HostFieldKind | undefined;
  /** A string field, or an unknown/any value whose shape another schema decides. */
  form: 'string' | 'opaque';
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  element?: z.ZodType;
  valueType?: z.ZodType;
  keyType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  left?: z.ZodType;
  right?: z.ZodType;
  items?: z.ZodType[];
}

export function textFields(schema: z.ZodType, path = '', kind?: HostFieldKind): TextField[] {
  const marked = hostFieldKind(schema) ?? kind;
  const def = (schema as unknown as { def: Def }).def;
  switch (def.type) {
    case 'string':
      return [{ path, kind: marked, form: 'string' }];
    case 'unknown':
    case 'any':
      return [{ path, kind: marked, form: 'opaque' }];
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([k, v]) => textFields(v, path ? `${path}.${k}` : k));
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return textFields(def.innerType!, path, marked);
    case 'pipe':
      return textFields(def.in!, path, marked);
    case 'union':
      return dedupe((def.options ?? []).flatMap((o) => textFields(o, path, marked)));
    case 'intersection':
      return dedupe([...textFields(def.left!, path, marked), ...textFields(def.right!, path, marked)]);
    case 'array':
      return textFields(def.element!, path, marked);
    case 'tuple':
      return dedupe((def.items ?? []).flatMap((o) => textFields(o, path, marked)));
    case 'record':
      return [...textFields(def.keyType!, `${path}{key}`, marked), ...textFields(def.valueType!, `${path}{}`, marked)];
    default:
      // numbers, booleans, literals, enums: nothing a path or a URL fits in
      return [];
  }
}

function dedupe(fields: TextField[]): TextField[] {
  const seen = new Map<string, TextField>();
  for (const f of fields) if (!seen.has(f.path) || f.kind) seen.set(f.path, f);
  return [...seen.values()];
}
