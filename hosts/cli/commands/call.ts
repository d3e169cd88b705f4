// skillbridge call: run tool calls on a fresh world, exactly as a model's calls
// would run, and print their results and the final semantic facts.
import { readFile } from 'node:fs/promises';
import type { Robot } from '../../../robot/robot';
import { openSim } from '../../../robot/sim/open';
import type { ToolRegistry } from '../../../agents/tools/registry';
import { buildToolSet, setsFor } from '../../../agents/tools/sets';
import type { Tool } from '../../../agents/tools/tool';
import { didYouMean } from '../../../base/did-you-mean';
import { type Parsed, UsageError, intFlag, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { parseNoise } from '../noise';

import { Script, type ScriptStep, ScriptRunner, isCall } from '../../../eval/audit/script';

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

async function readScript(path: string): Promise<ScriptStep[]> {
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
      `--script ${path}: ${where.replace(/^\./, '')}: ${i.message}. Expected a JSON array of {"tool": NAME, "args": {...}} or {"event": {...}, "during"?: SECONDS}.`,
    );
  }
  return r.data;
}

export async function callCommand(p: Parsed, o: Output): Promise<number> {
  const sceneId = requireFlag(p.flags, 'scene', 'a scene id such as "tabletop/fruits" or a scene file');
  const scriptPath = stringFlag(p.flags, 'script');
  let steps: ScriptStep[];
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
    if (!args || typeof args !== 'object' || Array.isArray(args))
      throw new UsageError('JSON_ARGS must be a JSON object, e.g. \'{"object_name": "lemon"}\'');
    steps = [{ tool, args: args as Record<string, unknown> }];
  }
  const { robot, control } = await openSim(sceneId, { seed: intFlag(p.flags, 'seed', 1), noise: parseNoise(stringFlag(p.flags, 'noise')) });
  const setId = stringFlag(p.flags, 'set');
  // Validate every call whose tool exists now before running any: bad input never
  // half-runs a script. Tools a set generates from what the robot sees (pick_<x>)
  // are looked up when their step comes.
  const found = new Map<number, { tool: Tool; set: string }>();
  for (const [i, s] of steps.entries()) {
    if (!isCall(s)) continue;
    const t = await findTool(robot, s.tool, setId).catch((e: unknown) => {
      if (setId !== undefined && (e as Error).message.startsWith('unknown tool')) return undefined;
      throw e;
    });
    if (!t) continue;
    const v = t.tool.parse(s.args);
    if (!v.ok) throw new UsageError(`${scriptPath ? `call [${i}] ` : ''}${v.message.replace(/\n/g, ' ')}`);
    found.set(i, t);
  }
  let index = 0;
  const runner = new ScriptRunner(robot, control, async (name) => {
    const known = found.get(index);
    if (known && known.tool.name === name) return known.tool;
    return (await findTool(robot, name, setId).catch(() => undefined))?.tool;
  });
  const results: CallResult[] = [];
  for (const [i, s] of steps.entries()) {
    index = i;
    const r = await runner.step(s);
    if (!isCall(s)) {
      if (!p.flags['json'])
        o.out(`event ${JSON.stringify(s.event)}${s.during !== undefined ? ` during the next call, at +${s.during} s` : ''}`);
      continue;
    }
    if (r.thrown) throw new Error(r.thrown);
    const res = r.result!;
    results.push({
      tool: s.tool,
      args: s.args,
      ok: res.ok,
      ...(res.ok ? { result: res.content } : { error: res.content }),
      ...(res.data !== undefined ? { data: res.data } : {}),
    });
    if (!p.flags['json']) {
      const set = found.get(i)?.set;
      o.out(`${s.tool} ${JSON.stringify(s.args)}${setId || !set ? '' : `   (${set})`}`);
      o.out(`  ${res.ok ? '✓' : '✗'} ${res.content.replace(/\n/g, '\n    ')}`);
    }
  }
  // The operator's view: what holds in the world, perceived by the robot or not.
  const facts = control.facts();
  if (p.flags['json']) json(o, { results, facts });
  else o.out(`\nFacts (t=${control.time().toFixed(1)} s):\n  ${facts.join('\n  ')}`);
  control.dispose();
  return results.every((r) => r.ok) ? 0 : 1;
}
