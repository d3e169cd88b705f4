// One RAIDER case from a candidate (a world variant, an action, a way of
// referring to its argument): the expected issue from what the world says and
// a dry run of the robot's own skill, the explanation's facts, and the recovery
// plan with its goal. Also the cheap guess that skips dry runs for issue types
// already full.
import type { Outcome } from '../../../robot/robot';
import type { PlanStep, WorldSpec } from '../../core/case';
import { ISSUE_OF_CODE, ISSUE_WORDS, type Issue, type RaiderAction, type RaiderGold } from './gold';
import { type Ref, verbOf } from './queries';
import { FREE_TABLE, actionStep, ask, clearAway, freeHand, goalOf, move, say } from './recovery';
import { type WorldInfo, namesOf } from './world-info';

export interface Variant {
  spec: WorldSpec;
  at: string;
  info: WorldInfo;
}

export interface Candidate {
  v: Variant;
  action: RaiderAction;
  ref: Ref;
  order: number;
}

/** A cheap guess at the issue, to skip dry runs for issue types already full. */
export function guess(c: Candidate): Issue | '?' {
  const { info } = c.v;
  if (c.ref.matches.length === 0) return 'IU3';
  if (c.ref.matches.length > 1) return 'IA';
  const o = info.visible.get(c.ref.matches[0]!)!;
  const needsHand = c.action !== 'place' && c.action !== 'slice';
  switch (c.action) {
    case 'pick':
      if (o.fixed || !o.props['pickable']) return 'IU5';
      break;
    case 'open':
    case 'close':
      if (!o.props['openable']) return 'IU5';
      if (o.state['open'] === (c.action === 'open')) return 'IU4';
      break;
    case 'turnon':
    case 'turnoff':
      if (!o.props['toggleable']) return 'IU5';
      if (o.state['on'] === (c.action === 'turnon')) return 'IU4';
      break;
    case 'slice':
      if (!o.props['sliceable']) return 'IU5';
      if (o.state['sliced']) return 'IU4';
      if (!info.held || !info.visible.get(info.held)?.props['canSlice']) return 'IU6';
      break;
    case 'place':
      if (!info.held) return 'IU6';
      break;
  }
  if (needsHand && info.held) return 'IU6';
  if (c.action === 'pick' && o.onTop.length + o.inside.length > 0) return 'IU2';
  return '?';
}

const displayName = (w: WorldInfo, id: string) => w.visible.get(id)?.name ?? w.all.get(id)?.name ?? id;
const label = (w: WorldInfo, id: string) => `${displayName(w, id)} (${id})`;
const namesFor = (w: WorldInfo, id: string) => {
  const o = w.visible.get(id) ?? w.all.get(id);
  return o ? namesOf(o) : [id];
};

/** Where a plan last moves the robot to. */
export function lastPlace(steps: readonly PlanStep[]): string | undefined {
  const m = [...steps].reverse().find((x) => x.tool === 'move_to');
  return m ? String(m.args['location']) : undefined;
}

export interface Made {
  gold: RaiderGold;
  answers?: { rules: Array<{ match: string[]; answer: string }>; fallback?: string };
}

export async function makeCase(c: Candidate, dry: (v: Variant, a: RaiderAction, t: string) => Promise<Outcome>): Promise<Made | undefined> {
  const { v, action, ref } = c;
  const w = v.info;
  const held = w.held;
  const detect = { tool: 'object_detection', args: {} };
  const base = {
    action,
    held,
    candidates: ref.matches,
    targetNames: ref.matches.length === 1 ? namesFor(w, ref.matches[0]!) : [],
    visible: [...w.visible.keys()].sort(),
  };
  // ---- IU3: nothing visible matches; the object is elsewhere in the kitchen
  if (ref.matches.length === 0) {
    const obj = ref.elsewhere!;
    const where = w.placeOf.get(obj)!;
    const title = w.places.find((p) => p.id === where)?.title ?? where;
    return {
      gold: {
        ...base,
        target: null,
        issue: 'IU3',
        code: null,
        mustName: [[ref.text.toLowerCase()]],
        nameAtLeast: 0,
        keywords: ISSUE_WORDS.IU3,
        evidence: [detect],
        explanation: `There is no ${ref.text} in sight: it is not present among the visible objects, so the robot cannot ${verbOf(action)} it from here.`,
        recovery: [
          ask(`Where is the ${ref.text}?`),
          move(where),
          // Inside a closed fridge or microwave: open it first.
          ...(w.closedIn.has(obj) ? [actionStep('open', w.closedIn.get(obj)!)] : []),
          actionStep(action, obj),
        ],
        goal: goalOf(action, obj, held),
      },
      answers: { rules: [], fallback: `The ${ref.text} is ${title} (${where}).` },
    };
  }
  // ---- IA: several visible objects match; the person means one the robot can act on
  if (ref.matches.length > 1) {
    let intended: string | undefined;
    for (const id of [...ref.matches].sort()) {
      if ((await dry(v, action, id)).ok) {
        intended = id;
        break;
      }
    }
    if (!intended) return undefined;
    const list = ref.matches.map((id) => label(w, id)).join(', ');
    return {
      gold: {
        ...base,
        target: null,
        issue: 'IA',
        code: null,
        mustName: ref.matches.map((id) => namesFor(w, id)),
        nameAtLeast: 2,
        keywords: ISSUE_WORDS.IA,
        evidence: [detect],
        explanation: `The query is ambiguous: ${ref.matches.length} visible objects match "${ref.text}": ${list}. Which one is meant?`,
        recovery: [
          ask(`Which ${ref.text} do you mean: ${ref.matches.map((id) => displayName(w, id)).join(' or ')}?`),
          actionStep(action, intended),
        ],
        goal: goalOf(action, intended, held),
      },
      answers: { rules: [], fallback: `The ${displayName(w, intended)} (${intended}).` },
    };
  }
  // ---- one match: the robot's own skill says what the issue is
  const t = ref.matches[0]!;
  const o = await dry(v, action, t);
  const issue: Issue | undefined = o.ok ? 'IN' : ISSUE_OF_CODE[o.code];
  if (!issue) return undefined;
  const tName = label(w, t);
  const gold = (
    x: Omit<
      RaiderGold,
      'action' | 'held' | 'candidates' | 'targetNames' | 'visible' | 'target' | 'issue' | 'code' | 'keywords' | 'nameAtLeast'
    >,
  ): Made => ({
    gold: { ...base, ...x, target: t, issue, code: o.ok ? null : o.code, keywords: ISSUE_WORDS[issue], nameAtLeast: 0 },
  });
  const verb = verbOf(action);
  switch (issue) {
    case 'IN':
      return gold({
        mustName: [namesFor(w, t)],
        evidence: [detect, { tool: 'robot_holding', args: {} }, { tool: 'dist_to_target', args: { target: t } }],
        explanation: `No issue: ${tName} is visible, within reach and ready, so the robot can ${verb} it.`,
        recovery: [actionStep(action, t)],
        goal: goalOf(action, t, held),
      });
    case 'IU1': {
      const where = w.placeOf.get(t);
      if (!where || where === v.at) return undefined;
      return gold({
        mustName: [namesFor(w, t)],
        evidence: [detect, { tool: 'dist_to_target', args: { target: t } }],
        explanation: `${tName} is out of reach: it is too far from the robot, beyond the arm's reach.`,
        recovery: [move(where), actionStep(action, t)],
        goal: goalOf(action, t, held),
      });
    }
    case 'IU2': {
      const info = w.visible.get(t)!;
      if (action === 'turnon' && info.state['open']) {
        // An appliance with its door open: close it first.
        return gold({
          mustName: [namesFor(w, t)],
          evidence: [detect, { tool: 'get_obj_state', args: { obj: t } }],
          explanation: `${tName} is blocked from being switched on: its door is open, in the way; it must be closed first.`,
          recovery: [...(held ? freeHand(held, v.at) : []), actionStep('close', t), actionStep(action, t)],
          goal: goalOf(action, t, held),
        });
      }
      // What is in the way: what lies on it or in it (pick), or what already fills the place (place).
      const blockers = action === 'place' ? info.inside : [...info.onTop, ...info.inside];
      const b = blockers.filter((x) => x !== held);
      if (!b.length) return undefined;
      const rel = action === 'place' ? 'inside' : info.onTop.length ? 'on top of' : 'inside';
      const recovery =
        action === 'place' && held
          ? [
              ...freeHand(held, v.at),
              ...clearAway(b, v.at),
              move(FREE_TABLE),
              { tool: 'pick', args: { object: held } },
              move(v.at),
              actionStep(action, t),
            ]
          : [...(held ? freeHand(held, v.at) : []), ...clearAway(b, v.at), actionStep(action, t)];
      return gold({
        mustName: [namesFor(w, t), namesFor(w, b[0]!)],
        evidence: [detect, { tool: 'check_obj_relationship', args: { relationship: rel, obj: t } }],
        explanation: `${tName} is blocked: ${b.map((x) => label(w, x)).join(' and ')} ${b.length > 1 ? 'are' : 'is'} ${rel === 'inside' ? 'inside it' : 'on top of it'}, in the way.`,
        recovery,
        goal: goalOf(action, t, held),
      });
    }
    case 'IU4': {
      const st = w.visible.get(t)!.state;
      const word =
        action === 'open' || action === 'close'
          ? st['open']
            ? 'open'
            : 'closed'
          : action === 'slice'
            ? 'sliced'
            : st['on']
              ? 'on'
              : 'off';
      return gold({
        mustName: [namesFor(w, t)],
        evidence: [detect, { tool: 'get_obj_state', args: { obj: t } }],
        explanation: `${tName} is already ${word}: there is nothing to ${verb}.`,
        recovery: [say(`The ${displayName(w, t)} is already ${word}.`)],
        goal: { kind: 'explain' },
      });
    }
    case 'IU5':
      return gold({
        mustName: [namesFor(w, t)],
        evidence: [detect, { tool: 'get_obj_properties', args: { obj: t } }],
        explanation: `${tName} cannot be handled that way: ${o.ok ? '' : o.summary} (not possible given its properties).`,
        recovery: [say(`I cannot ${verb} the ${displayName(w, t)}: ${o.ok ? '' : o.summary}.`)],
        goal: { kind: 'explain' },
      });
    case 'IU6': {
      if (!o.ok && o.code === 'hand_empty') {
        return gold({
          mustName: [],
          evidence: [detect, { tool: 'robot_holding', args: {} }],
          explanation: `The robot is not holding anything: its hand is empty, so there is nothing to place on ${tName}.`,
          recovery: [say('I am not holding anything to place.')],
          goal: { kind: 'explain' },
        });
      }
      if (!o.ok && o.code === 'needs_tool') {
        const knife = [...w.all.values()].find((x) => /knife/i.test(x.typeName))?.id;
        const kWhere = knife ? w.placeOf.get(knife) : undefined;
        if (!knife || !kWhere) return undefined;
        return gold({
          mustName: [['knife', knife]],
          evidence: [detect, { tool: 'robot_holding', args: {} }],
          explanation: `The robot is not holding a knife: slicing ${tName} needs a knife in the hand${held ? `, and the hand holds ${label(w, held)}` : ''}.`,
          recovery: [
            ...(held ? freeHand(held, kWhere) : kWhere !== v.at ? [move(kWhere)] : []),
            { tool: 'pick', args: { object: knife } },
            ...(kWhere !== v.at ? [move(v.at)] : []),
            actionStep(action, t),
          ],
          goal: goalOf(action, t, held),
        });
      }
      if (!held) return undefined;
      return gold({
        mustName: [namesFor(w, held)],
        evidence: [detect, { tool: 'robot_holding', args: {} }],
        explanation: `The robot is holding ${label(w, held)}: its hand is full, and it needs a free hand to ${verb} ${tName}.`,
        recovery: [...freeHand(held, v.at), actionStep(action, t)],
        goal: goalOf(action, t, held),
      });
    }
    default:
      return undefined;
  }
}
