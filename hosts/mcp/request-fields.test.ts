// What an MCP client can name: every tool's arguments, walked from the zod schema
// the server registers as the tool's input schema, for every tool set each kind
// of robot offers. No argument names a file, a folder, a URL, a model, a suite, a
// run, a trace or a report of the host: they name things of the robot's world
// (objects, places, people) and numbers. A tool that took one would need the host
// policy at this door; this test fails until it does.
import { afterAll, describe, expect, it } from 'vitest';
import { listScenes } from '../../scenes/registry';
import { setsFor } from '../../agents/tools/sets';
import { textFields } from '../../test/support/schema-fields';
import { type Fleet, openFleet } from './fleet';

/** Argument names that would name something of the host's. */
const HOSTISH =
  /(^|_)(path|file|files|filename|dir|directory|folder|url|uri|endpoint|host|model|spec|suite|run_?id|trace|report|script|db)($|_)/i;

describe('MCP tool arguments', () => {
  const fleets: Fleet[] = [];
  afterAll(async () => {
    for (const f of fleets) await f.close();
  });

  it("name nothing of the host's, for every tool set of every kind of robot", async () => {
    const byKind = new Map<string, string>();
    for (const s of listScenes()) if (!byKind.has(s.robotKind)) byKind.set(s.robotKind, s.id);
    const seen: string[] = [];
    const suspicious: string[] = [];
    for (const scene of byKind.values()) {
      const probe = await openFleet([{ name: 'robot', source: { kind: 'sim', scene, seed: 1 } }], { readOnly: false });
      fleets.push(probe);
      for (const set of setsFor(probe.robots[0]!.robot)) {
        const fleet = await openFleet([{ name: 'robot', source: { kind: 'sim', scene, seed: 1 }, set: set.id }], { readOnly: false });
        fleets.push(fleet);
        for (const tool of fleet.robots[0]!.tools) {
          if (!tool.params) continue;
          for (const f of textFields(tool.params)) {
            const key = `${set.id}/${tool.name}.${f.path}`;
            seen.push(key);
            if (f.kind || HOSTISH.test(f.path.split('.').at(-1) ?? '')) suspicious.push(key);
          }
        }
        await fleet.close();
      }
    }
    expect(seen.length).toBeGreaterThan(20);
    expect(suspicious).toEqual([]);
  }, 120_000);
});
