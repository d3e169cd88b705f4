// The Embodied Tool Protocol's registry for one robot (paper 004 §3.1): every tool
// of every set the robot can use, plus tools from elsewhere (monitors, tools run
// out of process), each once, with its card and the set it came from. A name two
// sets use for different tools keeps its plain form for the first set (the
// scene's own set first) and becomes `<name>__<set>` for the others.
import type { Robot } from '../../robot/robot';
import { ToolRegistry } from './registry';
import { type ToolSetDef, canonicalToolSet, setsFor } from './sets';
import type { Tool } from './tool';

export interface Catalogue {
  registry: ToolRegistry;
  /** Which set (or source) each registered name came from. */
  origin: ReadonlyMap<string, string>;
}

/** A tool under another name (same card, schema and behaviour). */
export function renamed(tool: Tool, name: string): Tool {
  return {
    ...tool,
    name,
    schema: () => ({ ...tool.schema(), name }),
    call: (raw, ctx) => tool.call(raw, ctx),
    run: (args, ctx) => tool.run(args, ctx),
    parse: (raw) => tool.parse(raw),
  };
}

/**
 * MAYA's task tools are generated from what the robot sees at the moment the set is
 * built (`pick_lemon_1`, `go_to_poi_3`): a registry entry would outlive the world it
 * was made from, so that set stays out.
 */
const SNAPSHOT_SETS = new Set(['rtw-hierarchical']);

export async function buildCatalogue(
  robot: Robot,
  extra: ReadonlyArray<{ source: string; tools: readonly Tool[] }> = [],
): Promise<Catalogue> {
  const registry = new ToolRegistry();
  const origin = new Map<string, string>();
  const own = canonicalToolSet(robot.info.scene.toolSet);
  const sets: ToolSetDef[] = setsFor(robot)
    .filter((s) => !SNAPSHOT_SETS.has(s.id))
    .sort((a, b) => Number(b.id === own) - Number(a.id === own));
  const groups: Array<{ source: string; tools: readonly Tool[] }> = [];
  for (const def of sets) groups.push({ source: def.id, tools: await def.build(robot) });
  groups.push(...extra);
  for (const { source, tools } of groups) {
    for (const tool of tools) {
      const existing = registry.get(tool.name);
      if (existing === tool) continue;
      if (existing && sameTool(existing, tool)) continue;
      const name = existing ? `${tool.name}__${source.replace(/[^a-zA-Z0-9_-]/g, '_')}` : tool.name;
      if (registry.has(name)) continue;
      registry.register(name === tool.name ? tool : renamed(tool, name));
      origin.set(name, source);
    }
  }
  return { registry, origin };
}

/** Sets build some tools per robot (the snapshot, check_events): the same schema and card is the same tool. */
function sameTool(a: Tool, b: Tool): boolean {
  return (
    a.description === b.description &&
    JSON.stringify(a.parameters) === JSON.stringify(b.parameters) &&
    JSON.stringify(a.card) === JSON.stringify(b.card)
  );
}
