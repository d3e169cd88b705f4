// skillbridge call: run tool calls on a fresh world, exactly as a model's calls
// would run, and print their results and the final semantic facts.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Robot } from '../../../robot/robot';
import { openSim } from '../../../robot/sim/open';
import { openRobot } from '../../../robot/sources';
import { RobotSourceError } from '../../../robot/source';
import { SafetyChain, type SafetyDecision } from '../../../agents/runtime/safety';
import type { SkillPredictor } from '../../../robot/skills';
import { robotChoice } from '../robot-flag';
import type { ToolRegistry } from '../../../agents/tools/registry';
import { buildToolSet, setsFor } from '../../../agents/tools/sets';
import type { Tool, ToolContext } from '../../../agents/tools/tool';
import { didYouMean } from '../../../base/did-you-mean';
import { type Parsed, UsageError, intFlag, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { parseNoise } from '../noise';

const ScriptStep = z.strictObject({
  tool: z.string().min(1),
  args: z.record(z.string(), z.unknown()).default({}),
});
const Script = z.array(ScriptStep).min(1, 'the script must list at least one call');

export interface CallResult {
  tool: string;
  args: unknown;
  ok: boolean;
  result?: string;
  error?: string;
  data?: unknown;
}

/** Finds a tool: in the chosen set, else the scene's default set, else any set the robot can use. */
export async function findTool(robot: Robot, name: string, setId: string | undefined): Promise<{ tool: Tool; set: string }> {
  const order = setId ? [setId] : [robot.info.scene.toolSet, ...setsFor(robot).map((s) => s.id)];
  const seen = new Set<string>();
  const names: string[] = [];
  for (const id of order) {
    if (seen.has(id)) continue;
    seen.add(id);
    let reg: ToolRegistry;
    try {
      reg = await buildToolSet(id, robot);
    } catch (e) {
      if (setId) throw new UsageError((e as Error).message);
      continue;
    }
    const t = reg.get(name);
    if (t) return { tool: t, set: id };
    names.push(...reg.names());
  }
  const where = setId ? `tool set "${setId}"` : `the tool sets for ${robot.info.scene.id}`;
  throw new UsageError(
    `unknown tool "${name}" in ${where}.${didYouMean(name, names)} Run "skillbridge tools --scene ${robot.info.scene.id}${setId ? ` --set ${setId}` : ''}" to list them.`,
  );
}

export async function readScript(path: string): Promise<Array<z.infer<typeof ScriptStep>>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new UsageError(
      `cannot read --script ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  let data: unknown;
  try {
    // A UTF-8 BOM (Windows editors add one) is not part of the JSON.
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    throw new UsageError(`--script ${path} is not valid JSON: ${(e as Error).message}`);
  }
  const r = Script.safeParse(data);
  if (!r.success) {
    const i = r.error.issues[0]!;
    const where = i.path.length ? i.path.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('') : '(top level)';
    throw new UsageError(
      `--script ${path}: ${where.replace(/^\./, '')}: ${i.message}. Expected a JSON array of {"tool": NAME, "args": {...}}.`,
    );
  }
  return r.data;
}

export async function callCommand(p: Parsed, o: Output): Promise<number> {
  const sceneId = stringFlag(p.flags, 'robot')
    ? undefined
    : requireFlag(p.flags, 'scene', 'a scene id such as "tabletop/fruits" or a scene file');
  const scriptPath = stringFlag(p.flags, 'script');
  let steps: Array<{ tool: string; args: unknown }>;
  if (scriptPath) {
    if (p.positionals.length) throw new UsageError('give either --script FILE or TOOL [JSON_ARGS], not both');
    steps = await readScript(scriptPath);
  } else {
    const [tool, rawArgs, ...rest] = p.positionals;
    if (!tool) throw new UsageError('name a tool to call, e.g. skillbridge call --scene tabletop/fruits get_objects');
    if (rest.length) throw new UsageError(`unexpected extra arguments: ${rest.join(' ')}. Quote the JSON arguments as one argument.`);
    let args: unknown = {};
    if (rawArgs !== undefined) {
      try {
        args = JSON.parse(rawArgs);
      } catch (e) {
        throw new UsageError(`JSON_ARGS is not valid JSON (${(e as Error).message}): ${rawArgs}`);
      }
    }
    steps = [{ tool, args }];
  }
  const { robot, predictor, facts, close } = await openForCall(p, sceneId);
  const setId = stringFlag(p.flags, 'set');
  // Resolve and validate every call before running any: bad input never half-runs a script.
  const plan: Array<{ tool: Tool; set: string; raw: unknown; args: unknown }> = [];
  for (const [i, s] of steps.entries()) {
    const { tool, set } = await findTool(robot, s.tool, setId);
    const v = tool.parse(s.args);
    if (!v.ok) throw new UsageError(`${scriptPath ? `call [${i}] ` : ''}${v.message.replace(/\n/g, ' ')}`);
    plan.push({ tool, set, raw: s.args, args: v.args });
  }
  // Every call passes the safety chain, as a model's would.
  const chain = new SafetyChain(robot, predictor ? { predictor } : {});
  const decisions: SafetyDecision[] = [];
  const ctx: ToolContext = {
    robot: chain.guard({
      via: 'tool',
      report: (d) => decisions.push(d),
      diverged: (d) => !p.flags['json'] && o.out(`  ≠ shadow: ${d.subject} — predicted ${d.predicted}, the robot reports ${d.actual}`),
    }),
    signal: new AbortController().signal,
    state: new Map(),
  };
  const results: CallResult[] = [];
  for (const c of plan) {
    decisions.length = 0;
    const r = await c.tool.run(c.args, ctx);
    if (!p.flags['json']) for (const d of decisions) if (d.verdict !== 'allow') o.out(`  safety ${d.verdict}: ${d.reason}`);
    results.push({
      tool: c.tool.name,
      args: c.raw,
      ok: r.ok,
      ...(r.ok ? { result: r.content } : { error: r.content }),
      ...(r.data !== undefined ? { data: r.data } : {}),
    });
    if (!p.flags['json']) {
      o.out(`${c.tool.name} ${JSON.stringify(c.raw)}${setId ? '' : `   (${c.set})`}`);
      o.out(`  ${r.ok ? '✓' : '✗'} ${r.content.replace(/\n/g, '\n    ')}`);
    }
  }
  // The operator's view: what holds in the world, perceived by the robot or not.
  const f = await facts();
  chain.dispose();
  if (p.flags['json']) json(o, { results, facts: f.facts });
  else o.out(`\n${f.title}:\n  ${f.facts.join('\n  ')}`);
  await close();
  return results.every((r) => r.ok) ? 0 : 1;
}

/** The simulator of --scene (facts are ground truth), or the robot of --robot (facts as it perceives them). */
async function openForCall(
  p: Parsed,
  sceneId: string | undefined,
): Promise<{
  robot: Robot;
  predictor?: SkillPredictor;
  facts: () => Promise<{ title: string; facts: string[] }>;
  close: () => Promise<void>;
}> {
  if (sceneId !== undefined) {
    const { robot, control } = await openSim(sceneId, {
      seed: intFlag(p.flags, 'seed', 1),
      noise: parseNoise(stringFlag(p.flags, 'noise')),
    });
    return {
      robot,
      facts: async () => ({ title: `Facts (t=${control.time().toFixed(1)} s)`, facts: control.facts() }),
      close: async () => control.dispose(),
    };
  }
  const choice = robotChoice(p);
  try {
    const opened = await openRobot(choice.form);
    const predictor = 'shadow' in opened ? opened.shadow : undefined;
    return {
      robot: opened.robot,
      ...(predictor ? { predictor } : {}),
      facts: async () => ({ title: `Facts as ${choice.label} perceives them`, facts: await opened.robot.perception.snapshot() }),
      close: () => opened.close(),
    };
  } catch (e) {
    if (e instanceof RobotSourceError) throw new UsageError(`--robot: ${e.message}`);
    throw e;
  }
}
