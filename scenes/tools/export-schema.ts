// Writes the JSON Schemas of scene, catalogue and robot files from the zod
// schemas, so editors validate and complete them (`"$schema"` in each file).
// `npm run scene-schema` regenerates; a test checks the committed files are current.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { sceneSchemas } from '../schema';

const { Catalogue, RobotConfig, Scene } = sceneSchemas();

const here = dirname(fileURLToPath(import.meta.url));

export const SCHEMA_FILES: readonly { file: string; schema: z.ZodType; title: string }[] = [
  { file: 'scene.schema.json', schema: Scene, title: 'Skillbridge scene' },
  { file: 'catalogue.schema.json', schema: Catalogue, title: 'Skillbridge object catalogue' },
  { file: 'robot.schema.json', schema: RobotConfig, title: 'Skillbridge robot configuration' },
];

/** The text of one schema file, as committed. */
export function schemaText(schema: z.ZodType, title: string): string {
  // "input": what a file may contain (defaults optional), not what parsing yields.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return `${JSON.stringify({ title, ...json }, null, 2)}\n`;
}

export function schemaPath(file: string): string {
  return join(here, '..', file);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const s of SCHEMA_FILES) {
    writeFileSync(schemaPath(s.file), schemaText(s.schema, s.title));
    process.stdout.write(`wrote scenes/${s.file}\n`);
  }
}
