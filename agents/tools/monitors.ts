// Continuous-mode tools (paper 004 Table 5: "runs in background loop"): a battery
// monitor and a person watcher. Started by a call, they keep running until the
// turn ends and raise events — a low battery, what a person says — through the
// workflow that hosts them; a critical one (a person saying stop, a critical
// battery, the emergency stop) is what paper 003 §6 says should preempt a skill.
import { z } from 'zod';
import type { Robot, RobotEvent } from '../../robot/robot';
import { fail, ok } from './common';
import { type Tool, type ToolCard, defineTool } from './tool';

export interface RaisedEvent {
  monitor: string;
  severity: 'info' | 'critical';
  text: string;
  /** The robot's clock, seconds. */
  time: number;
  event?: RobotEvent;
}

/** Words with which a person halts a robot. */
const STOP_WORDS = /\b(stop|halt|freeze|abort|hold on|emergency)\b/i;

/**
 * Whether a robot event must interrupt the running skill at once, and why (paper 003
 * §6: polling leaves long actions unpreempted). `undefined`: it can wait for the
 * next check_events.
 */
export function criticalReason(e: RobotEvent): string | undefined {
  const d = e.data;
  if (e.type === 'estop_pressed') return 'the emergency stop was pressed';
  if (e.type === 'battery_threshold' && (d['level'] === 'critical' || d['level'] === 'empty')) {
    const pct = typeof d['percent'] === 'number' ? ` (${d['percent'].toFixed(0)}%)` : '';
    return `the battery is ${String(d['level'])}${pct}`;
  }
  if (e.type === 'person_said' && typeof d['text'] === 'string' && STOP_WORDS.test(d['text'])) {
    return `${typeof d['person'] === 'string' ? d['person'] : 'a person'} said "${d['text']}"`;
  }
  return undefined;
}

interface MonitorDef {
  name: string;
  description: string;
  card: Pick<ToolCard, 'outputs' | 'whenToUse' | 'dimension'> & { requires: ToolCard['requires']; tags: string[] };
  /** Starts watching; returns what stops it. `raise` reports an event to the workflow. */
  start(robot: Robot, raise: (e: Omit<RaisedEvent, 'monitor'>) => void): Promise<() => void>;
}

const batteryMonitor: MonitorDef = {
  name: 'battery_monitor',
  description:
    'Starts watching the battery in the background for the rest of this task: it reports when the charge falls to low or critical, without being asked again.',
  card: {
    outputs: 'confirmation now; later, an event each time the battery level changes (low, critical, okay again)',
    whenToUse: 'at the start of a long mission, to be told when to return and charge',
    dimension: 'perception',
    requires: ['battery', 'events'],
    tags: ['battery', 'charge', 'energy', 'monitor', 'background', 'watch', 'low'],
  },
  start: async (robot, raise) => {
    const b = await robot.battery();
    if (b.level !== 'okay')
      raise({
        severity: b.level === 'low' ? 'info' : 'critical',
        text: `battery is ${b.level} (${b.percent.toFixed(0)}%)`,
        time: await robot.time(),
      });
    return robot.events.subscribe((e) => {
      if (e.type !== 'battery_threshold') return;
      const critical = criticalReason(e);
      raise({ severity: critical ? 'critical' : 'info', text: e.text, time: e.time, event: e });
    });
  },
};

const personWatcher: MonitorDef = {
  name: 'person_watcher',
  description:
    'Starts listening in the background for the rest of this task: it reports what people say to the robot (and at once when someone says stop) and, where the robot sees people, who is around.',
  card: {
    outputs: 'who is around now; later, an event for each thing a person says',
    whenToUse: 'when people work near the robot and may give instructions or tell it to stop',
    dimension: 'perception',
    requires: ['events'],
    tags: ['person', 'people', 'human', 'speech', 'listen', 'said', 'stop', 'monitor', 'background', 'watch'],
  },
  start: async (robot, raise) => {
    if (robot.people) {
      const around = await robot.people.around();
      raise({
        severity: 'info',
        text: around.length ? `people around: ${around.join(', ')}` : 'nobody is around',
        time: await robot.time(),
      });
    }
    return robot.events.subscribe((e) => {
      if (e.type !== 'person_said') return;
      raise({ severity: criticalReason(e) ? 'critical' : 'info', text: e.text, time: e.time, event: e });
    });
  },
};

const MONITORS: readonly MonitorDef[] = [batteryMonitor, personWatcher];
const HOST_KEY = 'monitors.host';

/**
 * Runs monitors for one turn of a workflow. The workflow creates it, puts it where
 * the monitor tools find it (`attach(state)`), reads what they raise, and stops
 * them all when the turn ends.
 */
export class MonitorHost {
  private readonly running = new Map<string, () => void>();

  constructor(
    private readonly robot: Robot,
    private readonly onRaise: (e: RaisedEvent) => void,
  ) {}

  attach(state: Map<string, unknown>): () => void {
    state.set(HOST_KEY, this);
    return () => {
      if (state.get(HOST_KEY) === this) state.delete(HOST_KEY);
    };
  }

  static of(state: Map<string, unknown>): MonitorHost | undefined {
    const h = state.get(HOST_KEY);
    return h instanceof MonitorHost ? h : undefined;
  }

  has(name: string): boolean {
    return this.running.has(name);
  }

  names(): string[] {
    return [...this.running.keys()];
  }

  /** Starts a monitor (once); returns false when it was running already. */
  async start(name: string): Promise<boolean> {
    const def = MONITORS.find((m) => m.name === name);
    if (!def) throw new Error(`no monitor named ${name}`);
    if (this.running.has(name)) return false;
    this.running.set(name, () => undefined);
    const stop = await def.start(this.robot, (e) => this.onRaise({ ...e, monitor: name }));
    if (this.running.has(name)) this.running.set(name, stop);
    else stop();
    return true;
  }

  stopAll(): void {
    for (const stop of this.running.values()) stop();
    this.running.clear();
  }
}

/** The monitors as tools: calling one starts it in the workflow's MonitorHost. */
export const MONITOR_TOOLS: readonly Tool[] = MONITORS.map((m) =>
  defineTool({
    name: m.name,
    description: m.description,
    category: 'information',
    params: z.strictObject({}),
    card: { ...m.card, mode: 'continuous' },
    execute: async (_a, { robot, state }) => {
      const host = MonitorHost.of(state);
      if (!host)
        return fail(
          `${m.name} runs in the background only in a workflow that hosts monitors (etp, dfki); ask for a one-off reading instead.`,
        );
      if (!m.card.requires.every((c) => robot.has(c)))
        return fail(`${m.name} needs ${m.card.requires.join(' and ')}, which this robot does not report.`);
      const started = await host.start(m.name);
      return ok(
        started
          ? `${m.name} is running in the background; what it notices will appear after your next tool results as "Events raised".`
          : `${m.name} was already running.`,
        { running: host.names() },
      );
    },
  }),
);
