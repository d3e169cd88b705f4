// Field-rover tools (paper 003, Valdemar): drive between points of interest,
// scan plants, dock, undock, charge, and read the battery.
import { z } from 'zod';
import { fail, guarded, ok, outcomeResult, resolveName } from '../common';
import { type Tool, defineTool } from '../tool';

export const FARM: Tool[] = [
  defineTool({
    name: 'navigate',
    description: 'Drives to a named location (a point of interest poi_1..poi_5, or shelter_entry). Not allowed while docked.',
    category: 'action',
    params: z.strictObject({ location: z.string().min(1) }),
    card: {
      outputs: 'arrival with distance and battery used, or why not',
      whenToUse: 'to go to a point of interest or back to the shelter entry',
      dimension: 'execution',
      requires: ['base'],
      tags: ['navigate', 'drive', 'go'],
    },
    execute: async ({ location }, { robot, signal }) =>
      guarded(async () => {
        const id = await resolveName(robot, location, ['location']);
        // The dock is reached by the docking manoeuvre from the entry pose, never by plain driving (paper 003 §4).
        if (robot.info.places.find((p) => p.id === id)?.kind === 'dock') {
          const entry = robot.info.places.find((p) => p.kind === 'entry')?.id ?? 'the shelter entry';
          return fail(`${id} is the charging dock: it is reached only by docking. Navigate to ${entry}, then call dock.`);
        }
        const o = await robot.base!.navigate(id, signal);
        // A battery-aware plan needs these figures in the text the model reads, not only in the data.
        const d = o.data;
        if (o.ok && typeof d?.['distanceM'] === 'number' && typeof d['battery'] === 'number') {
          return outcomeResult({ ...o, summary: `${o.summary} after ${d['distanceM']} m; battery now ${d['battery']}%` });
        }
        return outcomeResult(o);
      }),
  }),
  defineTool({
    name: 'scan',
    description:
      'Scans the plants at the current point of interest: crop, species, growth stage, vegetation index, height, health and visible symptoms of each.',
    category: 'action',
    params: z.strictObject({ poi: z.string().min(1).optional().describe('the point of interest the robot is at') }),
    card: {
      outputs: 'per-plant readings (crop, growth stage, vegetation index, height, health, symptoms)',
      whenToUse: 'at each point of interest of a survey',
      dimension: 'perception',
      requires: ['rover'],
      tags: ['scan', 'plants', 'sensing'],
    },
    execute: async ({ poi }, { robot, signal }) =>
      guarded(async () => outcomeResult(await robot.rover!.scan(poi ? await resolveName(robot, poi, ['location']) : undefined, signal))),
  }),
  defineTool({
    name: 'dock',
    description: 'Docks at the charging station. Only from the shelter entry pose.',
    category: 'action',
    params: z.strictObject({}),
    card: {
      outputs: 'docked, or why not',
      whenToUse: 'at the end of a mission, or to charge',
      dimension: 'execution',
      requires: ['rover'],
      tags: ['dock', 'shelter', 'station'],
    },
    execute: async (_a, { robot, signal }) => outcomeResult(await robot.rover!.dock(signal)),
  }),
  defineTool({
    name: 'undock',
    description: 'Leaves the charging dock, backing out to the shelter entry pose.',
    category: 'action',
    params: z.strictObject({}),
    card: {
      outputs: 'undocked, or why not',
      whenToUse: 'before driving anywhere while docked',
      dimension: 'execution',
      requires: ['rover'],
      tags: ['undock', 'leave'],
    },
    execute: async (_a, { robot, signal }) => outcomeResult(await robot.rover!.undock(signal)),
  }),
  defineTool({
    name: 'charge',
    description: 'Charges the battery at the dock up to a target percentage.',
    category: 'action',
    params: z.strictObject({ target_percent: z.number().min(1).max(100).default(100) }),
    card: {
      outputs: 'charge reached and time taken',
      whenToUse: 'when docked and the battery is low',
      dimension: 'execution',
      requires: ['rover'],
      tags: ['charge', 'battery'],
    },
    execute: async ({ target_percent }, { robot, signal }) => outcomeResult(await robot.rover!.charge(target_percent, signal)),
  }),
  defineTool({
    name: 'battery_status',
    description: 'Returns the battery state of charge and level (okay, low, critical).',
    category: 'information',
    params: z.strictObject({}),
    card: {
      outputs: 'percent, level, charging, docked',
      whenToUse: 'before and during missions',
      dimension: 'perception',
      requires: ['battery'],
      tags: ['battery', 'charge', 'level', 'energy'],
    },
    execute: async (_a, { robot }) => {
      const b = await robot.battery();
      const t = robot.info.batteryThresholds;
      return ok(
        `Battery ${b.percent.toFixed(0)}% (${b.level}; low at ${t.low}%, critical at ${t.critical}%)${b.docked ? ', docked' : ''}${b.charging ? ', charging' : ''}.`,
        b,
      );
    },
  }),
];
