// skillbridge call: run tool calls on a fresh world, exactly as a model's calls
// would run, and print their results and the final semantic facts.
import { phase } from '../../../base/phase';
import { readFailure, readUserText } from '../../../base/user-file';
import type { Robot } from '../../../robot/robot';
import { openSim } from '../../../robot/sim/open';
import type { SimControl } from '../../../robot/sim/control';
import { SafetyChain, type SafetyDecision } from '../../../agents/runtime/safety';
import type { SkillPredictor } from '../../../robot/skills';
import { robotChoice } from '../robot-flag';
import type { ToolRegistry } from '../../../agents/tools/registry';
import { buildToolSet, setsFor } from '../../../agents/tools/sets';
import type { Tool } from '../../../agents/tools/tool';
import { didYouMean } from '../../../base/did-you-mean';
import { type Parsed, UsageError, intFlag, requireFlag, stringFlag } from '../args';
import { type Output, json } from '../output';
import { parseNoise } from '../noise';

import { type ScriptStep, ScriptRunner, isCall } from '../../../eval/audit/script';

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

export async function readScript(path: string): Promise<ScriptStep[]> {
  let text: string;
  try {
    text = await readUserText(path);
  } catch (e) {
    throw new UsageError(`cannot read --script ${path}: ${readFailure(e)}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`--script ${path} is not valid JSON: ${(e as Error).message}`);
  }
  // Loaded here: a call without --script builds no script schemas.
  const { Script } = await import('../../../eval/audit/script-schema');
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
  // --urdf rosbridge --robot ws://…: the robot is only read (its own description); its twin acts in --scene.
  const twin = stringFlag(p.flags, 'urdf') !== undefined ? (await import('../urdf-flag')).twinOf(p.flags) : undefined;
  const sceneId =
    stringFlag(p.flags, 'robot') && !twin
      ? undefined
      : requireFlag(p.flags, 'scene', 'a scene id such as "tabletop/fruits" or a scene file');
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
  const { robot, control, predictor, acceptNoEstop, facts, close, described } = await openForCall(p, sceneId);
  if (described && !p.flags['json']) for (const line of described.lines) o.out(line);
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
  phase('tools-ready');
  if (!control && steps.some((s) => !isCall(s)))
    throw new UsageError('--script: event steps need a simulated world (--scene); a robot takes tool calls only');
  // Every call passes the safety chain, as a model's would.
  const chain = new SafetyChain(robot, { ...(predictor ? { predictor } : {}), ...(acceptNoEstop ? { acceptNoEstop } : {}) });
  const decisions: SafetyDecision[] = [];
  const accepted = chain.startRecord({ via: 'tool' });
  if (accepted && !p.flags['json']) o.out(`safety: ${accepted.reason}`);
  const guarded = chain.guard({
    via: 'tool',
    report: (d) => decisions.push(d),
    diverged: (d) => !p.flags['json'] && o.out(`  ≠ shadow: ${d.subject} — predicted ${d.predicted}, the robot reports ${d.actual}`),
  });
  let index = 0;
  const runner = new ScriptRunner(guarded, control, async (name) => {
    const known = found.get(index);
    if (known && known.tool.name === name) return known.tool;
    return (await findTool(robot, name, setId).catch(() => undefined))?.tool;
  });
  const results: CallResult[] = [];
  for (const [i, s] of steps.entries()) {
    index = i;
    decisions.length = 0;
    const r = await runner.step(s);
    if (!isCall(s)) {
      if (!p.flags['json'])
        o.out(`event ${JSON.stringify(s.event)}${s.during !== undefined ? ` during the next call, at +${s.during} s` : ''}`);
      continue;
    }
    // In the simulator a throw is our bug; a real robot that fails mid-call (it dropped, it answered
    // outside the protocol) is a failed call with the reason, and its state is unknown after it.
    if (r.thrown && control) throw new Error(r.thrown);
    const res = r.thrown
      ? {
          ok: false as const,
          content: `${s.tool} failed on the robot: ${r.thrown}. The robot's state (posture, position, what it holds) is unknown until observed again.`,
          data: undefined,
        }
      : r.result!;
    if (!p.flags['json']) for (const d of decisions) if (d.verdict !== 'allow') o.out(`  safety ${d.verdict}: ${d.reason}`);
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
  phase('called');
  // The operator's view: what holds in the world, perceived by the robot or not.
  const f = await facts();
  chain.dispose();
  if (p.flags['json'])
    json(o, { ...(described ? { robot: described.data } : {}), results, facts: f.facts, ...(accepted ? { safety: [accepted] } : {}) });
  else o.out(`\n${f.title}:\n  ${f.facts.join('\n  ')}`);
  phase('printed');
  await close();
  return results.every((r) => r.ok) ? 0 : 1;
}

/** The simulator of --scene (facts are ground truth), or the robot of --robot (facts as it perceives them). */
async function openForCall(
  p: Parsed,
  sceneId: string | undefined,
): Promise<{
  robot: Robot;
  /** The simulator's control (events in scripts); none for a robot. */
  control?: SimControl;
  predictor?: SkillPredictor;
  acceptNoEstop?: boolean;
  facts: () => Promise<{ title: string; facts: string[] }>;
  close: () => Promise<void>;
  /** The robot --urdf put in the scene: what to say about it. */
  described?: { lines: string[]; data: Record<string, unknown> };
}> {
  if (sceneId !== undefined) {
    // Loaded only for --urdf: the description reader is no part of a plain scene call's start-up.
    const urdf = stringFlag(p.flags, 'urdf') !== undefined ? await import('../urdf-flag') : undefined;
    const described = await urdf?.urdfRobotOrTwin(p.flags);
    let opened: Awaited<ReturnType<typeof openSim>>;
    try {
      opened = await openSim(sceneId, {
        seed: intFlag(p.flags, 'seed', 1),
        noise: parseNoise(stringFlag(p.flags, 'noise')),
        ...(described ? { robot: described } : {}),
      });
    } catch (e) {
      throw urdf?.urdfRefusal(e) ?? e;
    }
    const { robot, control } = opened;
    return {
      robot,
      control,
      ...(urdf && described ? { described: urdf.describeImport(described, opened.control.world) } : {}),
      facts: async () => ({ title: `Facts (t=${control.time().toFixed(1)} s)`, facts: control.facts() }),
      close: async () => control.dispose(),
    };
  }
  const choice = robotChoice(p);
  // Loaded only for --robot: the real robots' clients (rosbridge, HTTP) are a third of a scene call's start-up code,
  // and robot/source.ts builds the shadow form's schema as it loads.
  const [{ openRobot }, { RobotSourceError }] = await Promise.all([import('../../../robot/sources'), import('../../../robot/source')]);
  try {
    const opened = await openRobot(choice.form);
    const predictor = 'shadow' in opened ? opened.shadow : undefined;
    return {
      robot: opened.robot,
      ...(predictor ? { predictor } : {}),
      acceptNoEstop: choice.acceptNoEstop,
      // A robot that stopped answering has no facts to show: that is said, not read as "none".
      facts: async () => {
        try {
          return { title: `Facts as ${choice.label} perceives them`, facts: await opened.robot.perception.snapshot() };
        } catch (e) {
          return {
            title: `Facts as ${choice.label} perceives them`,
            facts: [`unknown: the robot did not answer (${(e as Error).message})`],
          };
        }
      },
      close: () => opened.close(),
    };
  } catch (e) {
    if (e instanceof RobotSourceError) throw new UsageError(`--robot: ${e.message}`);
    throw e;
  }
}
