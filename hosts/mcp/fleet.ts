// The robots one MCP server hosts, by name. Each robot comes from a source form
// (a scene today; an HTTP or rosbridge robot once those sources land) and has
// its own tool set. With one robot the tools keep their names; with several,
// each tool is prefixed with its robot's name ("arm__pick", "rover__dock"), so
// every tool keeps its exact schema, card and annotations, and a client can turn
// one robot's tools off (ros-mcp-server PR #235 asks for one server, many robots).
import { readFailure, readUserText } from '../../base/user-file';
import { z } from 'zod';
import { SafetyChain } from '../../agents/runtime/safety';
import { buildToolSet } from '../../agents/tools/sets';
import type { Tool } from '../../agents/tools/tool';
import type { Robot } from '../../robot/robot';
import { RobotSourceError } from '../../robot/source';
import { type RobotForm, type SimControl, openRobot } from '../../robot/sources';
import { CAMERA_TOOL, cameraTool } from '../../agents/tools/camera';

/** A setting the server cannot start with; the CLI prints it as one line and exits 2. */
export class McpSetupError extends Error {
  override name = 'McpSetupError';
}

/** Names join tool names with "__", so a name may not contain it; short enough for 64-character tool names. */
export const RobotName = z
  .string()
  .regex(/^[a-zA-Z][a-zA-Z0-9_-]{0,23}$/, 'a robot name is a letter, then up to 23 letters, digits, "_" or "-"')
  .refine((n) => !n.includes('__'), 'a robot name may not contain "__" (it separates the robot from the tool in tool names)');

export const PREFIX_SEPARATOR = '__';

export interface RobotSpec {
  name: string;
  /** The connection form, validated when the robot opens (robot/sources). */
  source: RobotForm;
  /** The tool set; default the scene's. */
  set?: string;
  /** The person accepts a robot that declares it reports no e-stop state (--accept-no-estop). */
  acceptNoEstop?: boolean;
}

const FleetFileSchema = z.strictObject({
  robots: z
    .record(
      RobotName,
      z.strictObject({
        source: z.record(z.string(), z.unknown()).describe('a robot source form, e.g. {"kind": "sim", "scene": "tabletop/fruits"}'),
        set: z.string().min(1).optional(),
      }),
    )
    .refine((r) => Object.keys(r).length > 0, 'name at least one robot'),
});

/**
 * `--scene S` is one robot named "robot"; `--scene arm=tabletop/fruits,rover=farm`
 * names several. Every robot gets the same seed and `--set` (if given).
 */
export function robotsFromSceneFlag(value: string, o: { seed: number; set?: string }): RobotSpec[] {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (!parts.length) throw new McpSetupError('--scene is empty: give a scene id, or NAME=SCENE pairs separated by commas');
  const named = parts.map((p) => /^([^=]+)=(.+)$/.exec(p));
  if (named.every((m) => m === null) && parts.length === 1) {
    return [{ name: 'robot', source: { kind: 'sim', scene: parts[0]!, seed: o.seed }, ...(o.set ? { set: o.set } : {}) }];
  }
  const out: RobotSpec[] = [];
  for (const [i, m] of named.entries()) {
    if (!m)
      throw new McpSetupError(`--scene: "${parts[i]}" has no robot name; with several robots write NAME=SCENE, e.g. arm=tabletop/fruits`);
    const name = m[1]!.trim();
    const n = RobotName.safeParse(name);
    if (!n.success) throw new McpSetupError(`--scene: robot name "${name}": ${n.error.issues[0]!.message}`);
    if (out.some((r) => r.name === name)) throw new McpSetupError(`--scene: the robot name "${name}" is used twice`);
    out.push({ name, source: { kind: 'sim', scene: m[2]!.trim(), seed: o.seed }, ...(o.set ? { set: o.set } : {}) });
  }
  return out;
}

/** `--robots FILE`: {"robots": {"arm": {"source": {"kind": "sim", "scene": "tabletop/fruits"}, "set": "alrm"}}}. */
export async function robotsFromFile(path: string): Promise<RobotSpec[]> {
  let text: string;
  try {
    text = await readUserText(path);
  } catch (e) {
    throw new McpSetupError(`cannot read --robots ${path}: ${readFailure(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new McpSetupError(`--robots ${path} is not valid JSON: ${(e as Error).message}`);
  }
  const r = FleetFileSchema.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0]!;
    // A bad record key (a robot name) carries the reason one level down.
    const message = i.code === 'invalid_key' ? (i.issues[0]?.message ?? i.message) : i.message;
    throw new McpSetupError(`--robots ${path}: ${i.path.length ? `${i.path.join('.')}: ` : ''}${message}`);
  }
  return Object.entries(r.data.robots).map(([name, e]) => ({
    name,
    source: e.source as RobotForm,
    ...(e.set ? { set: e.set } : {}),
  }));
}

export interface FleetRobot {
  readonly name: string;
  readonly robot: Robot;
  /** The simulator's handle when the robot is simulated (camera images, the live Foxglove view). */
  readonly sim: SimControl | undefined;
  readonly set: string;
  /** The one safety chain every acting call of this robot passes. */
  readonly safety: SafetyChain;
  /** The tools this server offers for the robot (acting ones left out in read-only mode). */
  readonly tools: readonly Tool[];
  /** The name a client calls a tool by: prefixed with the robot when the server hosts several. */
  toolName(tool: Tool): string;
}

export interface Fleet {
  readonly robots: readonly FleetRobot[];
  readonly readOnly: boolean;
  close(): Promise<void>;
}

const MAX_TOOL_NAME = 64;

/** Opens every robot and builds its tools; one that fails closes the others and names itself. */
export async function openFleet(specs: readonly RobotSpec[], o: { readOnly: boolean }): Promise<Fleet> {
  if (!specs.length) throw new McpSetupError('name at least one robot (--scene S, or --robots FILE)');
  const prefixed = specs.length > 1;
  const opened: Array<{ close(): Promise<void> }> = [];
  const robots: FleetRobot[] = [];
  const closeAll = async () => {
    for (const r of opened.reverse()) await r.close().catch(() => undefined);
  };
  try {
    for (const spec of specs) {
      const label = prefixed ? `robot "${spec.name}": ` : '';
      let handle;
      try {
        handle = await openRobot(spec.source);
      } catch (e) {
        if (e instanceof RobotSourceError) throw new McpSetupError(`${label}${e.message}`);
        throw e;
      }
      opened.push(handle);
      const robot = handle.robot;
      const set = spec.set ?? robot.info.scene.toolSet;
      let tools: Tool[];
      try {
        tools = (await buildToolSet(set, robot)).list();
      } catch (e) {
        throw new McpSetupError(`${label}${(e as Error).message}`);
      }
      const sim = handle.kind === 'sim' ? handle.sim : undefined;
      if ((robot as Robot).camera && !tools.some((t) => t.name === CAMERA_TOOL)) tools.push(cameraTool());
      if (o.readOnly) tools = tools.filter((t) => t.category === 'information');
      const toolName = (t: Tool) => (prefixed ? `${spec.name}${PREFIX_SEPARATOR}${t.name}` : t.name);
      const long = tools.find((t) => toolName(t).length > MAX_TOOL_NAME);
      if (long)
        throw new McpSetupError(
          `${label}the tool name "${toolName(long)}" is over ${MAX_TOOL_NAME} characters; choose a shorter robot name`,
        );
      const safety = new SafetyChain(robot, spec.acceptNoEstop ? { acceptNoEstop: true } : {});
      opened.push({ close: () => Promise.resolve(safety.dispose()) });
      robots.push({ name: spec.name, robot, sim, set, safety, tools, toolName });
    }
  } catch (e) {
    await closeAll();
    throw e;
  }
  return { robots, readOnly: o.readOnly, close: closeAll };
}
