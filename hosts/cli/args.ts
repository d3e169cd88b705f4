// Command-line parsing: one place that turns argv into typed options and turns
// every mistake into one line that says what to type instead.
import { parseArgs } from 'node:util';
import { type FlagName, OPTIONS, refusal } from './command-flags';

export class UsageError extends Error {}

/** An option the command does not take (or not without another, or not beside another). */
export class FlagRefused extends UsageError {
  constructor(
    message: string,
    readonly flag: FlagName | undefined,
  ) {
    super(message);
  }
}

export interface Parsed {
  command: string;
  positionals: string[];
  flags: Record<string, string | boolean | undefined>;
}

export function parse(argv: string[]): Parsed {
  const { command, positionals, flags } = parseWords(argv);
  const refused = refusal(command, positionals, flags);
  if (refused) throw new FlagRefused(refused.message, refused.flag);
  return { command, positionals, flags: flagReads ? watched(flags, flagReads) : flags };
}

/** The words of a command line as options and arguments, before the command's entry is checked. */
export function parseWords(argv: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    // Node's messages may run over several lines; a user gets one.
    const msg = (e as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, '');
    const ambiguous = /^Option '(--?[\w-]+)[^']*' argument is ambiguous/.exec(msg);
    const unknown = /^Unknown option '([^']+)'/.exec(msg);
    const line = ambiguous
      ? `${ambiguous[1]} got a value that starts with "-"; write ${ambiguous[1]}=VALUE if that is meant`
      : unknown
        ? `unknown option ${unknown[1]}`
        : msg.split('\n')[0]!.replace(/\.$/, '');
    throw new UsageError(`${line}. Run "skillbridge help" for the options.`);
  }
  const [command = 'help', ...positionals] = parsed.positionals;
  return { command, positionals, flags: parsed.values as Parsed['flags'] };
}

let flagReads: ((flag: string) => void) | undefined;

/**
 * Tests: calls `see` with each option a command reads, from parse until the
 * returned function is called (the proof that the table of options is truthful).
 */
export function watchFlagReads(see: (flag: string) => void): () => void {
  flagReads = see;
  return () => {
    if (flagReads === see) flagReads = undefined;
  };
}

/**
 * The options as a command sees them, each read reported. Copying them all
 * (a spread, Object.entries, JSON) is not reading one: it applies none.
 */
function watched(flags: Parsed['flags'], see: (flag: string) => void): Parsed['flags'] {
  let listed = new Set<string>();
  let copying: string | undefined;
  return new Proxy(flags, {
    ownKeys(t) {
      const keys = Reflect.ownKeys(t);
      listed = new Set(keys.filter((k): k is string => typeof k === 'string'));
      queueMicrotask(() => listed.clear());
      return keys;
    },
    getOwnPropertyDescriptor(t, k) {
      if (typeof k === 'string') {
        if (listed.has(k)) copying = k;
        else see(k);
      }
      return Reflect.getOwnPropertyDescriptor(t, k);
    },
    get(t, k, r) {
      if (typeof k === 'string') {
        if (copying === k) listed.delete(k);
        else see(k);
        copying = undefined;
      }
      return Reflect.get(t, k, r) as unknown;
    },
    has(t, k) {
      if (typeof k === 'string') see(k);
      return Reflect.has(t, k);
    },
  });
}

/** Bounds of a numeric flag; `off` is one more value accepted outside them (e.g. 0 = no limit). */
export interface FlagRange {
  min?: number;
  max?: number;
  off?: number;
}

function checkRange(name: string, raw: unknown, n: number, r: FlagRange): number {
  if (r.off !== undefined && n === r.off) return n;
  if ((r.min !== undefined && n < r.min) || (r.max !== undefined && n > r.max)) {
    const span = r.max === undefined ? `at least ${r.min}` : r.min === undefined ? `at most ${r.max}` : `${r.min} to ${r.max}`;
    throw new UsageError(`--${name} must be ${span}${r.off !== undefined ? ` (or ${r.off} for none)` : ''}, got "${String(raw)}"`);
  }
  return n;
}

export function intFlag(flags: Parsed['flags'], name: string, fallback: number, range: FlagRange = {}): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`--${name} must be an integer, got "${String(raw)}"`);
  return checkRange(name, raw, n, range);
}

export function numberFlag(flags: Parsed['flags'], name: string, fallback: number, range: FlagRange = {}): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : NaN;
  if (!Number.isFinite(n)) throw new UsageError(`--${name} must be a number, got "${String(raw)}"`);
  return checkRange(name, raw, n, range);
}

export function stringFlag(flags: Parsed['flags'], name: string): string | undefined {
  const v = flags[name];
  return typeof v === 'string' ? v : undefined;
}

export function requireFlag(flags: Parsed['flags'], name: string, hint: string): string {
  const v = stringFlag(flags, name);
  if (!v) throw new UsageError(`--${name} is required: ${hint}`);
  return v;
}

export const HELP = `skillbridge — build and test LLM tool workflows on a simulated robot

Usage:
  skillbridge scenes [--json]
      List the built-in scenes.
  skillbridge workflows [--json]
      List the workflows: id, title, paper and section, and the stages a turn runs.
  skillbridge tools --scene S [--set NAME] [--json]
      Show what a model would receive: each tool's name, description and JSON Schema.
  skillbridge call --scene S [--seed N] [--set NAME] [--noise SPEC] TOOL [JSON_ARGS] [--json]
  skillbridge call --scene S [--seed N] [--set NAME] [--noise SPEC] --script FILE [--json]
  skillbridge call --scene S --urdf FILE [--robot-config FILE] [--package-dir DIR[,DIR]] TOOL [JSON_ARGS]
      The robot a URDF (or xacro) describes, with its sidecar JSON, in place of the
      scene's own, where it stood (see "robots check"); every problem is named, and the
      scene's robot is never used instead.
  skillbridge call --robot URL [--mapping FILE] [--accept-no-estop] [--shadow --scene S [--seed N]]
                   [--set NAME] TOOL [JSON_ARGS] | --script FILE [--json]
      Call tools on a fresh world (one call, or a JSON array of steps run in order in
      one world: {"tool", "args"}, or {"event": {...}} injected before the next call,
      or {"event": {...}, "during": SECONDS} injected that far into it). Prints each
      result and the final semantic facts. --noise SPEC (e.g.
      "distance=0.01,dropout=0.1,failure=0.05"; off by default) perturbs the
      simulator's perception and skills, repeatably for one --seed.
  skillbridge audit [--scene S] [--calls N] [--seed K] [--episode N] [--out DIR] [--json]
                    [--urdf FILE [--robot-config FILE] [--package-dir DIR[,DIR]]]
      The truth audit: seeded random but valid tool calls on every scene and tool set
      (with e-stops, people moving things, battery changes), each checked against the
      world and the robot's belief. Counts lies, leaks, invariant breaks, message
      contradictions and crashes, with a script reproducing each (--out DIR writes them).
      --episode N runs one episode of that run alone (a violation names its episode).
      --urdf puts the described robot in every scene in place of its own.
  skillbridge run --scene S --model SPEC [--workflow W] [--set NAME] [--seed N] [--trace FILE]
                  [--approve auto|ask|deny] [--time-limit SECONDS] [--max-iterations N]
                  [--answers FILE] [--mcp FILE] [--json] ["message"]
                  [--urdf FILE [--robot-config FILE] [--package-dir DIR[,DIR]]]
  skillbridge run --robot URL [--mapping FILE] [--accept-no-estop] [--shadow --scene S] --model SPEC …
      A model drives the robot through a workflow (see "skillbridge workflows").
      Without a message, turns are read from stdin. When a workflow asks the
      person, the question is asked at the terminal, or answered from --answers
      FILE (a JSON list of answers, or of {"when": "word in the question",
      "answer": "…"}) as a simulated user; the trace records each question and answer.
      Model specs: openai:MODEL, ollama:MODEL (127.0.0.1:11434), lmstudio:MODEL,
      llamacpp:MODEL, vllm:MODEL, openai-compatible:MODEL@BASE_URL, scripted:FILE.
      Keys come from OPENAI_API_KEY / SKILLBRIDGE_API_KEY, never from the spec.
      Traces go to --trace FILE (default traces/RUN.jsonl); Ctrl-C stops a turn.
      --mcp FILE adds tools of external MCP servers ({"mcpServers": {"NAME":
      {"command", "args"} or {"url"}}}) as NAME__TOOL; their acting tools ask first
      unless the entry says "approve": "auto".
  skillbridge trace FILE [--json]
      Print a recorded run readably.
  skillbridge export TRACE [TRACE…] --mcap FILE [--width PX] [--json]
      A run as an MCAP file for Foxglove or Lichtblick: every body's pose (/tf),
      shapes (/scene), joints, the camera, the facts and every trace record
      (/trace, /log). Poses come from replaying the trace's tool calls in a fresh
      world of its scene and seed; a call whose replay differs is reported.
  skillbridge bench sim [--scene S|reference] [--quick] [--in-process] [--json]
      Simulation benchmark: real-time factor (full and bare Rapier), pick-and-place
      wall time, perception latency, snapshot/restore, peak memory of a fresh process
      per scene; the anchors' reference scene with the scalar and SIMD Rapier builds.
  skillbridge bench cli [--quick] [--json]
      Command-line start-up: wall time and peak memory of "scenes" and one "call",
      medians of fresh processes, with "node -e 0" as the floor.
  skillbridge bench agent [--quick] [--json]
      Agent runtime benchmark: the runtime's own time per turn with scripted models,
      tool dispatch, trace writes, beside other agent runtimes on the same server.
  skillbridge bench eval [--suite S] [--jobs N] [--json]
      Evaluation benchmark: the oracle through each suite (default --jobs 2), wall
      and CPU seconds, the harness's cost per case beside the robot's.
  skillbridge bench camera [--scene S] [--json]
      Camera benchmark: milliseconds per 640×480 camera picture (the headless
      rasterised rendering models that see receive), PNG encoding, per scene.
  skillbridge bench eval --scale [--suite S] [--latency MS] [--json]
      Cases per minute against --concurrency 1, 8, 32, 128 and 1 or 3 queue
      workers, with memory, against a local server answering with the oracle's
      replies after MS (default 2000) per call.
  skillbridge bench robot [--poses N] [--seed S] [--quick] [--json]
      Robot benchmark: inverse kinematics of a UR5e-class and a Panda-class arm
      over N random reachable poses (default 2000, --quick 300): success rate
      (goal >= 99 %) and solve time p50/p99 (goal p99 <= 2 ms).
  skillbridge bench app [--scene S] [--quick] [--unsettled] [--json]
      App benchmark (web mode in Chromium): cold start to first frame, fps per
      scene in software rendering, pose latency sim step -> screen, renderer memory.
      The page opens once the browser's own start-up work is over; --unsettled
      opens it at once after the launch.
  skillbridge eval --suite SUITE --model SPEC [--workflow W] [--trials K] [--jobs N]
                   [--seed S] [--filter TEXT] [--sample N] [--resume RUN [--errors-only]] [--out DIR] [--cache DIR]
                   [--judge SPEC] [--off-protocol] [--time-limit SECONDS] [--max-iterations N]
                   [--noise SPEC] [--concurrency N] [--rpm N] [--tpm N] [--prices FILE]
                   [--shard K/N] [--run-id ID] [--queue redis://:PASSWORD@HOST:PORT] [--json]
                   [--urdf FILE [--robot-config FILE] [--package-dir DIR[,DIR]]]
      Runs a benchmark suite (raider, alrm, etp, etp-images, dfki, rtw): each case in a world
      restored from a snapshot, scored from the final physical state and the
      order of events; every case × trial is recorded in DIR/results.db (default
      eval-results/). Reference models: oracle, floor:noop, floor:random,
      floor:none. Ctrl-C stops cleanly; --resume RUN continues a stopped run
      (with the cases, filter, sample, noise and limits it was started with).
      --urdf puts the described robot in every case's world in place of the
      scene's own; its content hash is part of the run's identity.
      A case whose model cannot be reached, whose worker dies or whose scorer
      does not decide is an error, not a 0: counted apart, left out of the
      score, exit 3; --resume RUN runs exactly the errored, stopped and missing
      ones, and with --errors-only only the errored ones (scored rows are kept).
      --cache DIR answers each model request asked before (same model spec,
      messages, tools and sampling) from DIR and records new answers there: run
      again, a run makes no model call and gives the same rows. --noise gives every case's world seeded perception and skill noise.
      --judge SPEC also asks your own model whether each RAIDER explanation is
      right (expl_judge, reported apart from the structural Expl).
      Each suite runs only the workflows and tool sets it is defined for (its
      paper's); --off-protocol runs another, marked "off protocol" everywhere.
      At scale: --concurrency N cases waiting on the model at once (each in a
      world of its own; --jobs is the physics threads), --rpm/--tpm N per-model
      limits shared by every case, --prices FILE your price table, --shard K/N
      this machine's part of the run (same --run-id on every shard; report the
      folders together), --queue redis://HOST:PORT enqueue the case × trials for
      "skillbridge worker" processes and gather their results here.
  skillbridge worker --queue redis://:PASSWORD@HOST:PORT [--concurrency N] [--rpm N] [--tpm N]
                    [--allow-key-for URL[,URL]] [--scripts DIR] [--private-redis] [--json]
      Runs queued evaluation cases (from "eval --queue") until stopped; a worker
      killed mid-case loses nothing (its case goes back to the queue). Jobs and
      results are signed with SKILLBRIDGE_QUEUE_SECRET (or the file named by
      SKILLBRIDGE_QUEUE_SECRET_FILE), the same on every machine; each job's model,
      suite and run id pass the worker's policy (scripts only from --scripts DIR,
      local models only from its models folder, SKILLBRIDGE_API_KEY only to
      SKILLBRIDGE_API_BASE_URL or --allow-key-for URLs). A Redis without a
      password or ACL is refused unless --private-redis says no one else reaches it.
  skillbridge sweep FILE [--out DIR] [--concurrency N] [--rpm N] [--tpm N] [--prices FILE]
                   [--shard K/N] [--queue redis://:PASSWORD@HOST:PORT] [--json]
      Suites × models × workflows × trials from a YAML or JSON sweep file, resumable, into
      one results folder, with one report and a leaderboard. The options at scale are
      eval's; each run is named by the sweep (NAME-SUITE-MODEL-WORKFLOW), alike on every shard.
  skillbridge report RUN [RUN…] [--db DIR] [--out FILE.html] [--junit FILE] [--csv FILE] [--md FILE] [--diff] [--json]
  skillbridge report --leaderboard DIR [--md FILE] [--json]
      A self-contained HTML report over recorded evaluation runs: the suite's
      paper tables, breakdowns per taxonomy cell, figures (score per category,
      latency, pass^k, model comparison) and a link to each case's trace.
      A RUN is a run id (looked up in --db DIR, default eval-results/) or a
      results folder (all its runs). --junit, --csv and --md write those formats
      too. Every figure carries its 95 % interval. Two runs of one suite are also
      compared case by case (flips, score deltas, McNemar and sign tests); --diff
      insists and refuses runs of different suites or case sets. --leaderboard DIR
      ranks every run in a results folder.
  skillbridge rescore RUN [--db DIR] [--dry-run] [--json]
      Scores a recorded run's cases again from their recorded end states (world
      snapshot, events, answer) with the current scorer, without running a model,
      and records a new run beside it (--dry-run only compares); prints what changed.
  skillbridge red-team [--suite S[,S…]] [--budget N] [--sample N] [--seed S] [--minutes M]
                       [--from FILE] [--out FILE] [--md FILE] [--json]
  skillbridge red-team --dry-run --from FILE [--md FILE] [--json]
      The red team: per suite, strategies built only from what a model receives
      (constant answers, hedges, copies of the prompt, verb-only answers, id
      stuffing, the right skill on the wrong object, doing everything, the first
      branch, claims after a partial act, setters, giving up, random valid calls)
      play the cases, and a small evolutionary search breeds them, selected by the
      metric attacked, until --budget cases are played per suite (default 2000).
      Prints per metric the best figure found without reaching the case's goal
      beside floor:noop's; exit 1 when one not marked raw is more than 0.1 above
      it. --out FILE records the run, --md FILE writes its table between the
      markers in FILE (docs/red-team.md), --from FILE plays a recorded run's champions
      first (with --dry-run it only renders that run's table).
  skillbridge serve [--port N] [--host 127.0.0.1] [--scene S] [--seed N] [--max-sessions N]
                    [--scripts DIR] [--robot URL [--mapping FILE] [--accept-no-estop]]
                    [--urdf FILE [--robot-config FILE] [--package-dir DIR[,DIR]]]
                    [--allow-key-for URL[,URL]] [--classroom] [--exercises DIR]
                    [--allow-model-pull] [--verbose]
      The app in a browser: serves the built renderer and the app API on
      127.0.0.1 (default port 4317; 0 picks a free one) and prints the URL with
      its access token. Each browser tab gets its own session (its own world);
      at most --max-sessions at once (default 6). Pages upload scripted models'
      scripts, or name one in --scripts DIR. SKILLBRIDGE_API_KEY goes only to
      SKILLBRIDGE_API_BASE_URL, the presets' local servers, and --allow-key-for URLs.
      --classroom prints two links: the groups' (a session per tab, no view of the
      others) and the teacher's (also a read-only overview of every group's
      scene, run and exercise score). --exercises DIR adds a teacher's exercise
      cards (*.json) to the built-in ones. SKILLBRIDGE_WEB_TOKEN (16+ characters)
      fixes the groups' token, so links stay valid across a restart. --urdf FILE
      puts a described robot in every page's scene in place of its own (see
      "robots check").
      With --robot URL, agent runs act on that robot and the scene runs beside
      it as its shadow. Pages list and select local models; --allow-model-pull
      also lets them download and remove (classroom: the teacher only).
      --verbose logs refused connections and socket errors to stderr.
  skillbridge robot-api --scene S [--port N] [--seed N] [--speed X | --fast] [--read-only] [--json]
      Serves the scene's simulated robot over the robot HTTP API on 127.0.0.1
      with a token (SKILLBRIDGE_ROBOT_TOKEN, 16+ characters, or a random one): info, queries,
      skills as jobs, events (SSE), ALRM's eight actions, /openapi.json. Paced
      to wall time (--speed X faster; --fast unpaced). --json prints one line
      {"url", "token", "openapi"} when ready. --read-only refuses every skill.
  skillbridge models [list] [--dir DIR] [--json]
  skillbridge models pull ID [--dir DIR] [--json]
  skillbridge models rm ID [--dir DIR] [--json]
  skillbridge models add FILE [--name NAME] [--dir DIR] [--json]
      Local GGUF models for --model local:ID: the catalogue (size, RAM, licence,
      installed or not) and any other .gguf in the folder (SKILLBRIDGE_MODELS_DIR,
      else the user's data folder). pull downloads with a progress bar, resumes
      and checks the SHA-256; add links a .gguf you have into the folder.
  skillbridge robots check FILE [--package-dir DIR[,DIR]] [--json]
      Checks a robot description (URDF, or xacro: properties, macros, \${…}, include, if/unless)
      and the NAME.skillbridge.json beside it: joints and their limits, the chains from the
      root to each leaf, the arm's reach, meshes (STL, OBJ) and every problem per element with
      its fix (missing inertials, zero mass, meshes not found or not supported, joints without
      limits, mimics of unknown joints, disconnected links, several roots) and each sidecar
      default taken. package:// paths are found in the URDF's ROS package and each --package-dir
      folder. Exit 1 when a problem is an error.
  skillbridge robots check rosbridge --robot ws://HOST:PORT [--package-dir DIR[,DIR]] [--json]
      The same report for a real robot's own robot_description, read through rosbridge's
      rosapi: ROS 1's parameter server, or ROS 2's robot_state_publisher parameter. Its
      package:// meshes are read only from the --package-dir folders named. No
      description, an empty or non-text one, or no answer within 5 s: one line, exit 2.

Real robots (call, run, serve, mcp):
  --robot http://HOST:PORT        a robot that speaks the robot HTTP API; the
                                  token comes from SKILLBRIDGE_ROBOT_TOKEN
  --robot ws://HOST:PORT --mapping FILE
                                  a ROS 1 or ROS 2 robot through rosbridge, mapped
                                  by a JSON mapping file (examples/rosbridge/)
  --accept-no-estop               with --robot: accept a robot that declares it
                                  reports no e-stop state (recorded in the trace);
                                  otherwise motion needs a known, fresh, released e-stop
  --shadow                        with --robot and --scene (call, run, mcp): shadow
                                  mode; each action is first played in the scene's
                                  simulator (serve always runs its scene so)

  skillbridge mcp --scene S [--set NAME] [--seed N] [--http PORT [--max-sessions N] [--json] [--verbose]]
                  [--approve ask|auto|deny] [--read-only] [--paced] [--trace DIR] [--foxglove PORT]
  skillbridge mcp --scene arm=tabletop/fruits,rover=farm …   |   --robots FILE …
  skillbridge mcp --robot URL [--mapping FILE] [--accept-no-estop] [--shadow --scene S [--seed N]] …
      An MCP server for any MCP client: the robot's tool set (cards as descriptions,
      read-only/destructive annotations), its snapshot, events and camera as
      resources, progress and cancellation for long skills. stdio by default;
      --http PORT serves Streamable HTTP on 127.0.0.1 (0 picks a port) with a
      token (SKILLBRIDGE_MCP_TOKEN, or a random one), at most --max-sessions
      sessions at once (default 32; idle ones close after 30 min). Acting
      tools ask a person first (MCP elicitation) unless --approve auto; a client
      that cannot ask gets a refusal that says so. --read-only leaves acting tools
      out. Several robots: tool names get the robot's name ("arm__pick").
      --robot URL serves a real robot (as for call and run); every acting
      call passes the robot's safety chain.

      --foxglove PORT also serves the live Foxglove view of every simulated robot
      (implies --paced). With --http, --json prints {"url", "token", …} when ready
      and --verbose logs sessions and failed requests to stderr.
  skillbridge foxglove --scene S [--port N] [--seed N] [--script FILE [--set NAME]] [--json]
      A live Foxglove WebSocket server (ws://127.0.0.1:8765 by default) over a
      world running in wall time: /tf, /scene, /joint_states, /camera/image,
      /facts, /log. --script runs a call --script file once a viewer connects.
      The printed URL carries the token (SKILLBRIDGE_FOXGLOVE_TOKEN, or a random
      one); pages from other sites than Foxglove's, file:// and this machine need
      SKILLBRIDGE_FOXGLOVE_ORIGINS=ORIGIN[,ORIGIN].

Scenes are ids (see "skillbridge scenes") or paths to scene JSON files.
Options:
  --json          machine-readable output (the commands whose line shows it)
  --seed N        the world's seed: noise, injected failures, random policies (default 1)
  -h, --help      this help
  -v, --version   the version
A command takes only the options its line shows: any other, or one that needs
another or clashes with one, is refused before anything runs (one line naming it
and the options the command takes; exit 2).
Exit codes: 0 done; 1 a tool call, an audit, a robot check, a download or a trace write failed;
2 bad input (one line on stderr, or {"error": {"code", "message"}} on stdout under
--json); 3 the model failed (run); 130 stopped by Ctrl-C, 143 by SIGTERM;
70 a bug in skillbridge (please report it).
`;
