// MAYA's tools (paper 000 §II.C.2): information tools that hold regardless of
// the world, and task tools generated from what the robot sees now.
import { z } from 'zod';
import type { Detection, Robot } from '../../../robot/robot';
import { list, ok, outcomeResult } from '../common';
import { type Tool, defineTool } from '../tool';
import { describeYourself } from './rtw-toro';

// ---------------------------------------------------------- MAYA (hierarchical)

interface TaskSpec {
  name: string;
  description: string;
  run: (robot: Robot, signal: AbortSignal) => ReturnType<NonNullable<Robot['arm']>['pick']>;
}

async function props(robot: Robot, id: string): Promise<Record<string, boolean>> {
  const p = (await robot.perception.objectProperties(id))['properties'];
  return (p && typeof p === 'object' ? p : {}) as Record<string, boolean>;
}

/** Why a visible object offers no task right now (or undefined when it offers one). */
async function noTaskReason(robot: Robot, d: Detection, held: string | undefined): Promise<string | undefined> {
  const p = await props(robot, d.id);
  const s = await robot.perception.objectState(d.id);
  if (p['openable'] || p['toggleable']) return undefined;
  if (p['pickable']) {
    if (held) return `the hand already holds ${held}`;
    const within = await robot.perception.related('inside', d.id);
    if (within.length) return `it has ${within.join(', ')} inside`;
    return undefined;
  }
  if (p['sliceable'] && !s['sliced'] && held && !/knife/.test(held)) return 'slicing needs a knife in the hand';
  return 'it is not something the robot can pick, open or switch';
}

/** Task skills generated from what the robot sees now (MAYA's skill inference). */
export async function mayaTaskSpecs(robot: Robot): Promise<TaskSpec[]> {
  const specs: TaskSpec[] = [];
  const arm = robot.arm;
  const held = await robot.perception.holding();
  const seen = await robot.perception.detect();
  if (arm) {
    for (const d of seen) {
      const p = await props(robot, d.id);
      const s = await robot.perception.objectState(d.id);
      if (p['openable'] && s['open'] === false)
        specs.push({ name: `open_${d.id}`, description: `Open ${d.name} (${d.id}).`, run: (_r, sig) => arm.setOpen(d.id, true, sig) });
      if (p['openable'] && s['open'] === true)
        specs.push({ name: `close_${d.id}`, description: `Close ${d.name} (${d.id}).`, run: (_r, sig) => arm.setOpen(d.id, false, sig) });
      if (p['toggleable'] && s['on'] === false)
        specs.push({
          name: `switch_on_${d.id}`,
          description: `Switch on ${d.name} (${d.id}).`,
          run: (_r, sig) => arm.setSwitch(d.id, true, sig),
        });
      if (p['toggleable'] && s['on'] === true)
        specs.push({
          name: `switch_off_${d.id}`,
          description: `Switch off ${d.name} (${d.id}).`,
          run: (_r, sig) => arm.setSwitch(d.id, false, sig),
        });
      if (p['sliceable'] && s['sliced'] === false && held && /knife/.test(held))
        specs.push({
          name: `slice_${d.id}`,
          description: `Slice ${d.name} (${d.id}) with the knife in the hand.`,
          run: (_r, sig) => arm.slice(d.id, sig),
        });
      if (p['pickable'] && !held && !(await noTaskReason(robot, d, held)))
        specs.push({ name: `pick_${d.id}`, description: `Pick up ${d.name} (${d.id}).`, run: (_r, sig) => arm.pick(d.id, sig) });
    }
    if (held) {
      for (const t of seen) {
        if (t.id === held) continue;
        const receptacle = Boolean((await props(robot, t.id))['receptacle']);
        if (!receptacle && (await robot.perception.objectProperties(t.id))['fixed'] !== true) continue;
        const rel = receptacle ? 'in' : 'on';
        specs.push({
          name: `put_${held}_${rel}_${t.id}`,
          description: `Put ${held} ${rel === 'in' ? 'into' : 'on'} ${t.name} (${t.id}).`,
          run: (_r, sig) => arm.place({ kind: 'object', id: t.id, relation: rel }, sig),
        });
      }
      if (robot.people) {
        for (const person of await robot.people.around())
          specs.push({
            name: `hand_${held}_to_${person}`,
            description: `Hand ${held} to ${person}.`,
            run: (_r, sig) => arm.handover(person, sig),
          });
      }
    }
  }
  if (robot.base) {
    for (const place of robot.info.places)
      specs.push({
        name: `go_to_${place.id}`,
        description: `Drive to ${place.title ?? place.id}.`,
        run: (r, sig) => r.base!.navigate(place.id, sig),
      });
  }
  // Tool names are limited to 64 characters of [a-zA-Z0-9_-].
  return specs.filter((s) => /^[a-zA-Z0-9_-]{1,64}$/.test(s.name));
}

/** The task tools for this moment; regenerate after every action (they may vanish). */
export async function mayaTaskTools(robot: Robot): Promise<Tool[]> {
  return (await mayaTaskSpecs(robot)).map((t) =>
    defineTool({
      name: t.name,
      description: `${t.description} Available because of what the robot sees now.`,
      category: 'action',
      params: z.strictObject({}),
      card: {
        outputs: 'success or failure with a reason',
        whenToUse: t.description,
        constraints: 'generated from the current world state; one per iteration',
        dimension: 'execution',
        tags: ['task', 'dynamic'],
      },
      execute: async (_a, { robot: r, signal }) => outcomeResult(await t.run(r, signal)),
    }),
  );
}

const explainSafetyFeatures = defineTool({
  name: 'explain_safety_features',
  description: "Explains the robot's safety features and limits.",
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'the safety features in words',
    whenToUse: 'is it safe? what happens if…?',
    dimension: 'cognition',
    tags: ['safety', 'static'],
  },
  execute: async (_a, { robot }) => {
    const i = robot.info;
    const lines = [
      'An emergency stop halts every motion at once; the robot waits until it is released.',
      "Every physical action can be stopped mid-motion, and actions can be set to need a person's approval first.",
      'Tasks are offered only when the robot sees what they act on, and one task runs at a time.',
    ];
    if (i.arm)
      lines.push(
        `The arm lifts at most ${i.arm.payloadKg} kg and reaches ${i.arm.reachM.toFixed(2)} m; heavier or farther things are refused, not attempted blindly.`,
      );
    if (i.base && !i.base.tucksArmItself) lines.push('The base refuses to drive while the arm sticks out of its footprint.');
    if (robot.has('battery'))
      lines.push(`The battery reports low below ${i.batteryThresholds.low}% and critical below ${i.batteryThresholds.critical}%.`);
    return ok(lines.join('\n'));
  },
});

const listAvailableTasks = defineTool({
  name: 'list_available_tasks',
  description: 'Lists the tasks the robot can do right now, given what it sees and holds.',
  category: 'information',
  params: z.strictObject({}),
  card: { outputs: 'task names with descriptions', whenToUse: 'what can you do now?', dimension: 'cognition', tags: ['tasks', 'dynamic'] },
  execute: async (_a, { robot }) => {
    const specs = await mayaTaskSpecs(robot);
    return ok(
      specs.length
        ? `Tasks available now:\n${specs.map((s) => `- ${s.name}: ${s.description}`).join('\n')}`
        : 'No tasks are available right now. Ask why_no_objects_or_tasks for the reasons.',
      specs.map((s) => s.name),
    );
  },
});

const whyNoObjectsOrTasks = defineTool({
  name: 'why_no_objects_or_tasks',
  description: 'Troubleshooting: explains why the robot sees no objects, or why an object it sees offers no task.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'reasons, object by object',
    whenToUse: "why can't you do X? why don't you see Y?",
    dimension: 'reasoning',
    tags: ['troubleshooting', 'explain'],
  },
  execute: async (_a, { robot }) => {
    const seen = await robot.perception.detect();
    const held = await robot.perception.holding();
    const lines: string[] = [];
    if (!robot.arm) lines.push('This robot has no arm, so it offers no manipulation tasks.');
    if (!seen.length) {
      const at = robot.info.places.length ? ' Drive to a place that serves a table or counter, or look again.' : '';
      lines.push(`The camera sees no objects from here: nothing is in view, in range and unoccluded.${at}`);
    }
    if (held) lines.push(`The hand holds ${held}: picking anything else needs it put down first.`);
    for (const d of seen) {
      const why = await noTaskReason(robot, d, held);
      if (why) lines.push(`${d.id}: no task, because ${why}.`);
    }
    const battery = robot.has('battery') ? await robot.battery() : undefined;
    if (battery && (battery.level === 'critical' || battery.level === 'empty'))
      lines.push(`The battery is ${battery.level} (${battery.percent}%).`);
    if (!lines.length) lines.push(`Every object in view offers a task: ${list((await mayaTaskSpecs(robot)).map((s) => s.name))}.`);
    return ok(lines.join('\n'));
  },
});

const whatDoYouSee = defineTool({
  name: 'what_do_you_see',
  description: 'Lists the objects the robot sees now, with their states.',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'objects in view and their states',
    whenToUse: 'what is in front of you?',
    dimension: 'perception',
    requires: ['perception'],
    tags: ['perception', 'dynamic'],
  },
  execute: async (_a, { robot }) => {
    const seen = await robot.perception.detect();
    if (!seen.length) return ok('I see no objects from here.');
    const lines: string[] = [];
    for (const d of seen) {
      const st = Object.entries(await robot.perception.objectState(d.id)).map(([k, v]) => (v ? k : `not ${k}`));
      lines.push(`- ${d.id} (${d.name}), ${d.distanceM.toFixed(2)} m away${st.length ? `, ${st.join(', ')}` : ''}`);
    }
    return ok(`I see:\n${lines.join('\n')}`, seen);
  },
});

/** MAYA's information category (independent of the world's state, or reporting it). */
export function mayaInformationTools(robot: Robot): Tool[] {
  const tools = [describeYourself, explainSafetyFeatures, listAvailableTasks, whyNoObjectsOrTasks];
  if (robot.has('perception')) tools.push(whatDoYouSee);
  return tools;
}
