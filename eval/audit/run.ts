// skillbridge audit: seeded random but valid tool sequences on every scene and
// tool set, with exogenous events (an e-stop during a skill, a person moving an
// object at rest and in motion, battery changes), and after every call the
// independent checker (check.ts). Each violation comes with a short script that
// reproduces it (`skillbridge call --script`), shortened by trying without
// earlier steps.
import { listScenes } from '../../scenes/registry';
import { buildToolSet, setsFor } from '../../agents/tools/sets';
import type { Tool, ToolResult } from '../../agents/tools/tool';
import { openSim } from '../../robot/sim/open';
import type { LoadedRobot } from '../../scenes/urdf/load';
import type { SimControl } from '../../robot/sim/control';
import type { Robot } from '../../robot/robot';
import { visiblePersonIds } from '../../sim/perception/visibility';
import type { SimWorld } from '../../sim/world/sim-world';
import {
  type AddedNode,
  CLASSES,
  type Finding,
  type PathVerdict,
  type Unjudged,
  type ViolationClass,
  checkCall,
  toolFamily,
} from './check';
import { recognisable } from './check-sight';
import { Draw, argsFor } from './generate';
import { type CallStep, type ScriptEvent, type ScriptStep, ScriptRunner, isCall } from './script';
import { type WorldReading, readWorld } from './truth';
import { knownIds, believedCentres, judgedAt } from './believed-readings';

export interface AuditOptions {
  /** Scene ids (default: every built-in scene). */
  scenes?: readonly string[];
  /** Tool calls in all (spread over the scenes and their tool sets). */
  calls: number;
  seed: number;
  /** Calls per fresh world. */
  episode?: number;
  /** A robot description put in every scene in place of its own robot (RobotImportError when it cannot stand there). */
  robot?: LoadedRobot;
  /**
   * Run only these episodes (their numbers in the run with this seed and scenes), each
   * once and whole: a violation's `episode` replays alone, as it ran in the long audit.
   */
  episodes?: readonly number[];
  /** Replays allowed to shorten each violation's script (0: keep the whole prefix). */
  shrinkBudget?: number;
  /** Each step as it runs (an event or a call), with its episode. */
  onStep?: (episode: number, step: ScriptStep) => void;
  /** After each call: the report so far (counts and violations). */
  onProgress?: (done: number, total: number, soFar: AuditReport) => void;
}

export interface Violation {
  class: ViolationClass;
  scene: string;
  set: string;
  seed: number;
  /** Its episode in the run: `skillbridge audit --seed K --episode N` runs it again. */
  episode: number;
  /** Steps that reproduce it: `skillbridge call --scene SCENE --set SET --seed SEED --script FILE`. */
  script: ScriptStep[];
  detail: string;
}

export interface AuditReport {
  calls: number;
  lies: number;
  leaks: number;
  invariants: number;
  messages: number;
  crashes: number;
  /** Checks a class could not decide, per class and reason (the goal is none). */
  unjudged: Partial<Record<ViolationClass, Record<string, number>>>;
  /** The first few calls of each unjudged reason, with the steps up to them. */
  unjudgedCases: Array<Omit<Violation, 'class' | 'detail'> & Unjudged>;
  /**
   * Per tool ("set/tool"; MAYA's generated tools by family, pick_<id>): its outputs, and
   * how many of them had every claim judged. Coverage is judged / outputs; the goal is all.
   */
  coverage: Record<string, { outputs: number; judged: number }>;
  /** Outputs with a claim the checker could not read or decide (the goal is none). */
  unjudgedOutputs: number;
  violations: Violation[];
  seconds: number;
  scenes: Record<string, { calls: number; sets: string[] }>;
}

/** Tool sets whose tools the model sees change with the world (rebuilt before every call). */
const DYNAMIC_SETS = new Set(['rtw-hierarchical']);

export interface Episode {
  scene: string;
  set: string;
  seed: number;
  /** The described robot in the scene's place (audit --urdf). */
  robot?: LoadedRobot;
}

/** Each episode draws from its own stream, so one episode runs alone exactly as in the whole run. */
const drawSeed = (seed: number, episode: number): number => (Math.imul(seed + 1, 0x9e3779b1) ^ Math.imul(episode + 1, 0x85ebca6b)) >>> 0;
/** Unjudged calls kept with their steps, per reason. */
const UNJUDGED_CASES = 3;

/** Opens a world for an episode and a way to find its tools by name. */
async function open(ep: Episode): Promise<{ robot: Robot; control: SimControl; toolFor: (name: string) => Promise<Tool | undefined> }> {
  const { robot, control } = await openSim(ep.scene, { seed: ep.seed, ...(ep.robot ? { robot: ep.robot } : {}) });
  let reg = await buildToolSet(ep.set, robot);
  const toolFor = async (name: string): Promise<Tool | undefined> => {
    if (DYNAMIC_SETS.has(ep.set)) reg = await buildToolSet(ep.set, robot);
    return reg.get(name);
  };
  return { robot, control, toolFor };
}

/** Runs one call under the checker. */
class Watch {
  readonly mentioned = new Set<string>();
  readonly peopleSeen = new Set<string>();
  /** People the robot could recognise at a call's boundary: it may name them from then on. */
  readonly recognised = new Set<string>();
  /** The last event id check_events has reported. */
  private eventsRead = 0;
  /** What operators added to the world model and the properties they set, as the results said. */
  readonly added = new Map<string, AddedNode>();
  readonly props = new Map<string, Record<string, string | number | boolean>>();
  /** What check_free_path said last of each target. */
  readonly paths = new Map<string, PathVerdict>();

  constructor(
    readonly ep: Episode,
    readonly world: SimWorld,
    readonly runner: ScriptRunner,
  ) {}

  /** Runs and judges one call; `said` may stand in for what the tool said (a planted lie, in tests of the checker). */
  async call(step: CallStep, movedByEvent: ReadonlySet<string>, unjudged: Unjudged[] = [], said?: Said): Promise<Finding[]> {
    const w = this.world;
    // What an earlier event left moving comes to rest first: it is not this call's doing.
    this.runner.rest();
    this.lookAtPeople();
    const before = readWorld(w);
    const eventsBefore = w.events.lastId;
    let eventsAtEnd = eventsBefore;
    const knownBefore = knownIds(w);
    const beliefBefore = new Map(w.belief.objects);
    // Where things were as the call returned, if something still moved then.
    let atEnd: WorldReading | undefined;
    this.runner.onEnded = () => {
      eventsAtEnd = w.events.lastId;
      if (!w.objectsSettled()) atEnd = readWorld(w);
    };
    const ran = await this.runner.step(step);
    const run = said ? { ...ran, result: said(ran.result, w) } : ran;
    this.runner.onEnded = undefined;
    const after = judgedAt(atEnd, readWorld(w));
    const knownAfter = knownIds(w);
    const learnt = new Set([...w.entities.keys()].filter((id) => w.belief.everKnew(id)));
    for (const p of w.belief.people.keys()) this.peopleSeen.add(p);
    const findings = checkCall(
      {
        world: w,
        set: this.ep.set,
        tool: step.tool,
        args: step.args,
        result: run.result,
        thrown: run.thrown,
        before,
        after,
        knownBefore,
        knownAfter,
        learnt,
        peopleSeen: this.peopleSeen,
        mentioned: this.mentioned,
        // Still rolling as the call began (after the world's rest): its move is not the call's doing.
        movedByEvent: new Set([...movedByEvent, ...[...before.bodies.values()].filter((b) => !b.fixed && b.speed > 0.01).map((b) => b.id)]),
        beliefBefore,
        ended: run.ended ?? after.time,
        eventsBefore,
        eventsRead: this.eventsRead,
        recognised: this.recognised,
        added: this.added,
        props: this.props,
        paths: this.paths,
      },
      believedCentres(w, after),
      unjudged,
    );
    this.remember(step, run.result, after);
    if (step.tool === 'check_events' && run.result?.ok) this.eventsRead = eventsAtEnd;
    this.lookAtPeople();
    // What a tool said once is known from then on (a leak is reported the first time).
    const text = run.result?.content ?? '';
    for (const id of [...w.entities.keys(), ...w.people.keys()]) if (text.includes(id)) this.mentioned.add(id);
    // Event texts reach the robot through check_events: their names are known too.
    for (const e of w.events.all())
      if ('object' in e && typeof e.object === 'string' && /check_events/.test(step.tool)) this.mentioned.add(e.object);
    return findings;
  }

  /** People in view now, and whom of them the robot could recognise. */
  private lookAtPeople(): void {
    for (const p of visiblePersonIds(this.world)) {
      this.peopleSeen.add(p);
      if (recognisable(this.world, p, true) === 'yes') this.recognised.add(p);
    }
  }

  /** What a result told the robot's side that later outputs may build on: world-model edits, free-path verdicts. */
  private remember(step: CallStep, result: { ok: boolean; content: string } | undefined, after: WorldReading): void {
    if (!result?.ok) return;
    let m = /^Added ([a-z][a-z0-9_]*) (on|in) ([a-z][a-z0-9_]*)(?: \(operator-set: the robot has not perceived it\))?\.$/.exec(
      result.content,
    );
    if (m && step.tool === 'add_object') {
      const type = typeof step.args['object_type'] === 'string' ? step.args['object_type'] : 'object';
      this.added.set(m[1]!, { type, parent: m[3]!, relation: m[2] as 'on' | 'in' });
    }
    m = /^([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*) = /.exec(result.content);
    if (m && step.tool === 'set_object_property') {
      const v = step.args['value'];
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
        this.props.set(m[1]!, { ...(this.props.get(m[1]!) ?? {}), [m[2]!]: v });
    }
    m = /^The path to ([a-z][a-z0-9_]*) is (?:free|blocked by (.+))\.$/.exec(result.content);
    if (m && step.tool === 'check_free_path') {
      const [target, obstacle] = [m[1]!, m[2]];
      if (!obstacle || (!this.world.entities.has(obstacle) && !this.world.people.has(obstacle))) this.paths.delete(target);
      else {
        const p = this.world.people.get(obstacle);
        const at = p ? { x: p.position.x, y: p.position.y, z: p.position.z } : after.bodies.get(obstacle)?.pos;
        this.paths.set(target, { obstacle, base: after.base.pos, obstacleAt: at });
      }
    }
  }
}

/** An exogenous event between calls, or armed for the next call. */
function drawEvent(d: Draw, w: SimWorld): ScriptStep | undefined {
  const movable = [...w.entities.values()].filter((e) => !e.fixed && !w.isHeld(e.id) && !w.handedOver.has(e.id));
  const surfaces = [...w.entities.values()].filter((e) => e.fixed && e.spec.surfaces.length);
  const r = d.next();
  if (r < 0.02) return w.estop ? { event: { type: 'estop_released' } } : { event: { type: 'estop_pressed' } };
  if (w.estop && r < 0.25) return { event: { type: 'estop_released' } };
  if (r < 0.035 && movable.length) {
    // A person sets something on the robot's hand, or stacks it on another object.
    const o = d.pick(movable);
    const others = movable.filter((e) => e.id !== o.id);
    const tcp = w.tcp()?.p;
    let to: [number, number, number] | undefined;
    if (tcp && d.chance(0.5)) to = [round3(tcp.x), round3(tcp.y + 0.12), round3(tcp.z)];
    else if (others.length) {
      const b = w.aabb(d.pick(others).id);
      to = [round3((b.min.x + b.max.x) / 2), round3(b.max.y + 0.12), round3((b.min.z + b.max.z) / 2)];
    }
    if (to) {
      const event: ScriptEvent = { type: 'object_moved', object: o.id, to, by: 'a person' };
      return d.chance(0.5) ? { event } : { event, during: round3(0.2 + d.next() * 2) };
    }
  }
  if (r < 0.05 && movable.length && surfaces.length) {
    const o = d.pick(movable);
    const s = d.pick(surfaces);
    const top = w.surfaces(s.id)[0]!;
    const x = top.min.x + 0.1 + d.next() * Math.max(0, top.max.x - top.min.x - 0.2);
    const z = top.min.z + 0.1 + d.next() * Math.max(0, top.max.z - top.min.z - 0.2);
    const event: ScriptEvent = { type: 'object_moved', object: o.id, to: [round3(x), round3(top.max.y + 0.15), round3(z)], by: 'a person' };
    return d.chance(0.5) ? { event } : { event, during: round3(0.2 + d.next() * 2) };
  }
  if (r < 0.065) return { event: { type: 'set_battery', percent: d.int(5, 100) } };
  if (r < 0.072) {
    // Someone speaks to the robot, between calls or while a skill runs.
    const event: ScriptEvent = { type: 'person_said', text: d.pick(['stop that', 'where is my cup?', 'thanks']) };
    return d.chance(0.5) ? { event } : { event, during: round3(0.1 + d.next() * 2) };
  }
  if (r < 0.08 && !w.estop) return { event: { type: 'estop_pressed' }, during: round3(0.1 + d.next() * 2) };
  return undefined;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** What a tool said, replaced (a planted lie): given what it said and the world after the call. */
export type Said = (result: ToolResult | undefined, world: SimWorld) => ToolResult | undefined;

/**
 * Replays a script in a fresh world and checks its last call: the findings there. `said`
 * replaces the last call's result before it is judged; `unjudged` collects what the checker
 * could not judge of it.
 */
export async function replay(
  ep: Episode,
  steps: readonly ScriptStep[],
  opts: { said?: Said; unjudged?: Unjudged[] } = {},
): Promise<Finding[]> {
  const { robot, control, toolFor } = await open(ep);
  const runner = new ScriptRunner(robot, control, toolFor);
  const watch = new Watch(ep, control.world, runner);
  let findings: Finding[] = [];
  const moved = new Set<string>();
  try {
    for (const [i, s] of steps.entries()) {
      if (isCall(s)) {
        // Every call is watched: what earlier calls told (events read, people recognised) shapes the last one's judgement.
        const last = i === steps.length - 1;
        const f = await watch.call(s, moved, last ? opts.unjudged : [], last ? opts.said : undefined);
        if (last) findings = f;
        moved.clear();
      } else {
        if (s.during !== undefined && s.event.type === 'object_moved') moved.add(s.event.object);
        await runner.step(s);
      }
    }
  } finally {
    control.dispose();
  }
  return findings;
}

/** Shortens a script: drops earlier steps while the same kind of violation still shows at its last call. */
async function shrink(ep: Episode, steps: ScriptStep[], f: Finding, budget: number): Promise<ScriptStep[]> {
  const same = (fs: Finding[]): boolean => fs.some((x) => x.class === f.class && x.detail.split(':')[0] === f.detail.split(':')[0]);
  let cur = steps;
  let tries = 0;
  // Chunks first (halves, quarters…), then single steps, never the last call.
  for (let size = Math.floor((cur.length - 1) / 2); size >= 1 && tries < budget; size = Math.floor(size / 2)) {
    for (let start = 0; start + size < cur.length && tries < budget;) {
      const cand = [...cur.slice(0, start), ...cur.slice(start + size)];
      tries++;
      if (same(await replay(ep, cand).catch(() => []))) cur = cand;
      else start += size;
    }
  }
  return cur;
}

export async function runAudit(opts: AuditOptions): Promise<AuditReport> {
  const t0 = performance.now();
  const scenes = opts.scenes?.length ? [...opts.scenes] : listScenes().map((s) => s.id);
  const episodeLength = opts.episode ?? 40;
  const budget = opts.shrinkBudget ?? 12;
  const report: AuditReport = {
    calls: 0,
    lies: 0,
    leaks: 0,
    invariants: 0,
    messages: 0,
    crashes: 0,
    unjudged: {},
    unjudgedCases: [],
    coverage: {},
    unjudgedOutputs: 0,
    violations: [],
    seconds: 0,
    scenes: {},
  };
  const setsOf = new Map<string, string[]>();
  const shrunk = new Map<string, number>();
  const only = opts.episodes?.length ? [...opts.episodes] : undefined;
  let next = 0;
  while (only ? next < only.length : report.calls < opts.calls) {
    const episodeNo = only ? only[next]! : next;
    next++;
    const scene = scenes[episodeNo % scenes.length]!;
    if (!setsOf.has(scene)) {
      const { robot, control } = await openSim(scene, opts.robot ? { robot: opts.robot } : {});
      setsOf.set(
        scene,
        setsFor(robot).map((s) => s.id),
      );
      control.dispose();
    }
    const sets = setsOf.get(scene)!;
    const set = sets[Math.floor(episodeNo / scenes.length) % sets.length]!;
    const ep: Episode = { scene, set, seed: opts.seed * 1000 + episodeNo, ...(opts.robot ? { robot: opts.robot } : {}) };
    // Every eighth episode runs four times as long: drift shows only in long sequences.
    const length = episodeNo % 8 === 7 ? episodeLength * 4 : episodeLength;
    const draw = new Draw(drawSeed(opts.seed, episodeNo));
    const { robot, control, toolFor } = await open(ep);
    const w = control.world;
    const runner = new ScriptRunner(robot, control, toolFor);
    const watch = new Watch(ep, w, runner);
    const steps: ScriptStep[] = [];
    const stat = (report.scenes[scene] ??= { calls: 0, sets: [] });
    if (!stat.sets.includes(set)) stat.sets.push(set);
    try {
      let moved = new Set<string>();
      for (let n = 0; n < length && (only || report.calls < opts.calls); n++) {
        const ev = drawEvent(draw, w);
        if (ev) {
          steps.push(ev);
          opts.onStep?.(episodeNo, ev);
          if (!isCall(ev) && ev.during !== undefined && ev.event.type === 'object_moved') moved.add(ev.event.object);
          await runner.step(ev);
        }
        const tools = (await buildToolSet(set, robot)).list();
        const tool = draw.pick(tools);
        const args = argsFor(draw, w, tool);
        if (!args) continue;
        const step = { tool: tool.name, args };
        steps.push(step);
        opts.onStep?.(episodeNo, step);
        const skipped: Unjudged[] = [];
        const findings = await watch.call(step, moved, skipped);
        for (const u of skipped) {
          const per = (report.unjudged[u.class] ??= {});
          per[u.reason] = (per[u.reason] ?? 0) + 1;
          if (per[u.reason]! <= UNJUDGED_CASES)
            report.unjudgedCases.push({ ...u, scene, set, seed: ep.seed, episode: episodeNo, script: [...steps] });
        }
        moved = new Set();
        report.calls++;
        stat.calls++;
        const cov = (report.coverage[`${set}/${toolFamily(w, step.tool)}`] ??= { outputs: 0, judged: 0 });
        cov.outputs++;
        if (skipped.length) report.unjudgedOutputs++;
        else cov.judged++;
        for (const f of findings) {
          report[f.class]++;
          // Shorten the first few of each kind; keep the rest as the whole prefix.
          const kind = `${f.class}:${f.detail.split(':')[0]}`;
          const n = shrunk.get(kind) ?? 0;
          shrunk.set(kind, n + 1);
          const script = n < 2 && budget > 0 ? await shrink(ep, [...steps], f, budget) : [...steps];
          report.violations.push({ class: f.class, scene, set, seed: ep.seed, episode: episodeNo, script, detail: f.detail });
        }
        opts.onProgress?.(report.calls, opts.calls, report);
        if (findings.some((f) => f.class === 'crashes')) break;
      }
    } finally {
      control.dispose();
    }
  }
  report.seconds = Math.round((performance.now() - t0) / 100) / 10;
  return report;
}

/** The command that reproduces a violation, given the file its script is written to (and the --urdf options of an imported robot). */
export function reproduceCommand(v: Violation, file: string, robotFlags = ''): string {
  return `skillbridge call --scene ${v.scene}${robotFlags} --set ${v.set} --seed ${v.seed} --script ${file}`;
}

export { CLASSES };
