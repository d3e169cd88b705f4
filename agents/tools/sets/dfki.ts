// The DFKI planner-and-executor interface of paper 003 (§5): one environment-changing
// primitive act(action, params), two state primitives (the semantic snapshot and
// check_events) and one introspection primitive (reflect). The chatbot's tools
// (Table 1) answer questions without acting. The set was called planner-executor;
// that name stays an alias for one release (see ./index.ts).
import { z } from 'zod';
import type { Outcome, Robot } from '../../../robot/robot';
import { fail, guarded, ok, outcomeResult, resolveName } from '../common';
import { type Tool, defineTool } from '../tool';

interface ActionDef {
  params: string;
  doc: string;
  run(robot: Robot, p: string[], signal: AbortSignal): Promise<Outcome>;
}

const need = (p: string[], n: number, usage: string): void => {
  if (p.length < n) throw new ParamError(`expects ${usage}`);
};
class ParamError extends Error {}

/** The action catalogue: which actions exist depends on the robot's declared capabilities. */
export function actionCatalogue(robot: Robot): Record<string, ActionDef> {
  const acts: Record<string, ActionDef> = {};
  const obj = (name: string): Promise<string> => resolveName(robot, name, ['object']);
  if (robot.base) {
    acts['navigate'] = {
      params: '[location]',
      doc: robot.arm ? 'drive to a named location (the arm must be tucked: home or transport)' : 'drive to a named location',
      run: async (r, p, s) => {
        need(p, 1, '[location]');
        return r.base!.navigate(await resolveName(r, p[0]!, ['location']), s);
      },
    };
  }
  if (robot.arm) {
    const postures = robot.info.arm!.postures.join(', ');
    acts['move_arm'] = {
      params: '[posture]',
      doc: `move the arm to a posture (${postures})`,
      run: (r, p, s) => (need(p, 1, '[posture]'), r.arm!.moveToPosture(p[0]!, s)),
    };
    acts['perceive'] = {
      params: '[]',
      doc: 'look at the workspace in front of the robot and update the observed objects',
      run: (r, _p, s) => r.arm!.perceive(s),
    };
    acts['pick'] = {
      params: '[object]',
      doc: 'pick an object (one at a time)',
      run: async (r, p, s) => (need(p, 1, '[object]'), r.arm!.pick(await obj(p[0]!), s)),
    };
    acts['place'] = {
      params: '[surface]',
      doc: 'place the held object on a table or surface',
      run: async (r, p, s) => (need(p, 1, '[surface]'), r.arm!.place({ kind: 'object', id: await obj(p[0]!), relation: 'on' }, s)),
    };
    acts['insert'] = {
      params: '[object, container]',
      doc: 'put the held object into a container',
      run: async (r, p, s) => {
        need(p, 2, '[object, container]');
        const held = await r.perception.holding();
        const o = await obj(p[0]!);
        if (held !== o)
          return {
            ok: false,
            code: 'hand_empty',
            summary: held ? `the hand holds ${held}, not ${o}` : `the hand is empty; pick ${o} first`,
          };
        return r.arm!.place({ kind: 'object', id: await obj(p[1]!), relation: 'in' }, s);
      },
    };
  }
  if (robot.rover) {
    acts['scan'] = {
      params: '[poi]',
      doc: 'scan the plants at the current point of interest',
      run: async (r, p, s) => r.rover!.scan(p[0] ? await resolveName(r, p[0], ['location']) : undefined, s),
    };
    acts['dock'] = {
      params: '[]',
      doc: 'dock at the charging station (only from the shelter entry pose)',
      run: (r, _p, s) => r.rover!.dock(s),
    };
    acts['undock'] = { params: '[]', doc: 'leave the dock to the shelter entry pose', run: (r, _p, s) => r.rover!.undock(s) };
    acts['charge'] = {
      params: '[target_percent]',
      doc: 'charge at the dock up to a percentage',
      run: (r, p, s) => {
        const t = p[0] === undefined ? 100 : Number(String(p[0]).replace('%', ''));
        if (!Number.isFinite(t)) throw new ParamError('expects [target_percent], a number');
        return r.rover!.charge(t, s);
      },
    };
  }
  if (robot.speech) {
    acts['speak'] = { params: '[text]', doc: 'say something aloud', run: (r, p) => (need(p, 1, '[text]'), r.speech!.say(p.join(' '))) };
    acts['listen'] = { params: '[]', doc: 'wait up to 30 s for a person to say something', run: (r, _p, s) => r.speech!.listen(30, s) };
  }
  acts['wait'] = {
    params: '[seconds]',
    doc: 'do nothing for a while',
    run: (r, p, s) => {
      const t = Number(p[0] ?? 5);
      if (!Number.isFinite(t)) throw new ParamError('expects [seconds], a number');
      return r.wait(t, s);
    },
  };
  return acts;
}

export function dfkiTools(robot: Robot): Tool[] {
  const catalogue = actionCatalogue(robot);
  const names = Object.keys(catalogue) as [string, ...string[]];
  const doc = names.map((n) => `${n} ${catalogue[n]!.params}: ${catalogue[n]!.doc}`).join('; ');
  return [
    defineTool({
      name: 'reflect',
      description: 'Record your reasoning: the goal, what you know, your plan and the next step. Does not change the environment.',
      category: 'information',
      params: z.strictObject({
        thought: z.string().min(1).describe('what you conclude from the latest results'),
        plan: z.array(z.string()).optional().describe('remaining steps, in order'),
        next_step: z.string().optional(),
      }),
      card: {
        outputs: 'acknowledgement; the reflection goes into the trace',
        whenToUse: 'before acting, and after any failure, to plan the next single action',
        dimension: 'reasoning',
        tags: ['reflect', 'plan', 'think', 'introspection'],
      },
      execute: async ({ thought, plan, next_step }) =>
        ok('Reflection recorded.', { thought, plan: plan ?? [], next_step: next_step ?? null }),
    }),
    defineTool({
      name: 'act',
      description: `Execute exactly one high-level action in the environment. params are strings, read by position. Actions: ${doc}.`,
      category: 'action',
      params: z.strictObject({
        action: z.enum(names).describe('the action to run'),
        params: z.array(z.string()).default([]).describe('positional parameters of the action'),
      }),
      card: {
        outputs: 'a textual status: success or failure with a reason, plus incidents',
        whenToUse: 'to change the environment, one grounded action at a time',
        constraints: 'one action per call; refresh the snapshot after acting',
        dimension: 'execution',
        tags: ['act', 'action', 'execute', ...names],
      },
      execute: async ({ action, params }, { robot, signal }) =>
        guarded(async () => {
          try {
            return outcomeResult(await catalogue[action]!.run(robot, params, signal));
          } catch (e) {
            if (e instanceof ParamError) return fail(`act ${action} ${e.message}; got ${JSON.stringify(params)}`);
            throw e;
          }
        }),
    }),
    snapshotTool,
    checkEvents,
  ];
}

export const snapshotTool = defineTool({
  name: 'get_semantic_environment_representation_snapshot',
  description:
    'Returns the current sensor-driven semantic environment representation as a partially observable state snapshot (facts such as robot_at, on, in, holding, battery).',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'a list of facts',
    whenToUse: 'before acting, and after every action, to ground the next step in the current state',
    dimension: 'cognition',
    requires: ['perception'],
    tags: ['state', 'snapshot', 'facts', 'world', 'where'],
  },
  execute: async (_a, { robot }) => {
    const facts = await robot.perception.snapshot();
    return ok(facts.join('\n'), facts);
  },
});

export const checkEvents = defineTool({
  name: 'check_events',
  description:
    'Checks for discrete, text-based exogenous events since the last check (emergency stop, what a person said, battery thresholds, objects moved).',
  category: 'information',
  params: z.strictObject({}),
  card: {
    outputs: 'the new events, or "no events"',
    whenToUse: 'after each action, and whenever execution might have been interrupted',
    mode: 'event',
    dimension: 'perception',
    requires: ['events'],
    tags: ['events', 'interrupt', 'estop', 'battery', 'said'],
  },
  execute: async (_a, { robot, state }) => {
    const cursor = (state.get('check_events.cursor') as number | undefined) ?? 0;
    const events = await robot.events.since(cursor);
    // The cursor moves to the last event read, so one that arrives meanwhile is read next time.
    if (events.length) state.set('check_events.cursor', events[events.length - 1]!.id);
    return ok(events.length ? events.map((e) => e.text).join('\n') : 'No events.', events);
  },
});

/** The chatbot of paper 003 (Table 1): it talks, it does not act. */
export function chatbotTools(robot: Robot, now: () => Date = () => new Date()): Tool[] {
  return [
    defineTool({
      name: 'get_today_date',
      description: "Returns today's date.",
      category: 'information',
      params: z.strictObject({}),
      card: { outputs: 'the date', whenToUse: 'when asked about the date', dimension: 'cognition', tags: ['date', 'today'] },
      execute: async () => ok(now().toISOString().slice(0, 10)),
    }),
    defineTool({
      name: 'get_available_locations',
      description: 'Returns the named locations the robot knows.',
      category: 'information',
      params: z.strictObject({}),
      card: {
        outputs: 'location ids and what they are',
        whenToUse: 'when asked where the robot can go',
        dimension: 'cognition',
        tags: ['locations', 'places', 'where'],
      },
      execute: async () => ok(robot.info.places.map((p) => `${p.id} (${p.kind})`).join(', ') || 'No named locations.'),
    }),
    snapshotTool,
    ...(robot.speech
      ? [
          defineTool({
            name: 'speak',
            description: 'Says something aloud.',
            category: 'action',
            params: z.strictObject({ text: z.string().min(1) }),
            card: {
              outputs: 'confirmation',
              whenToUse: 'to answer aloud',
              dimension: 'execution',
              requires: ['speech'],
              tags: ['speak', 'say'],
            },
            execute: async ({ text }, ctx) => outcomeResult(await ctx.robot.speech!.say(text)),
          }),
        ]
      : []),
  ];
}
