// ETP's tool-chain composition cases (paper 004 §3.2): derived from what the
// robot sees at each kitchen place, played in the physics, and kept only when
// the chain reaches its goal; the minimal tool set and its order come from the plan.
import type { PlanStep } from '../../core/case';
import { playPlan } from '../../core/play';
import type { GenerateContext } from '../../core/suite';
import type { WorldInfo } from '../raider/world-info';
import { ACTION_TOOLS, type Case, HOUSEHOLD, kitchen, mk, step } from './make';

export async function chainCases(ctx: GenerateContext, infos: ReadonlyMap<string, WorldInfo>, out: Case[]): Promise<void> {
  // ---- 4. tool-chain composition: derived from the world, played in the physics, kept when it reaches the goal
  const chains: Array<{ id: string; at: string; text: string; plan: PlanStep[]; goal: string[]; difficulty: string }> = [];
  for (const [at, w] of infos) {
    for (const o of [...w.visible.values()]
      .filter((x) => x.props['pickable'] && !x.fixed && !x.onTop.length && !x.inside.length)
      .slice(0, 3)) {
      chains.push({
        id: `chain/${at}/${o.id}-to-free-table`,
        at,
        text: `Put the ${o.name} on the free table.`,
        plan: [step('pick', { object: o.id }), step('move_to', { location: 'free_table' }), step('place', { object: 'free_table' })],
        goal: [`on(${o.id}, free_table)`],
        difficulty: 'medium',
      });
    }
    for (const c of [...w.visible.values()].filter((x) => x.fixed && x.props['openable'] && x.state['open'] === false)) {
      const inside = [...w.closedIn.entries()].filter(([, cont]) => cont === c.id).map(([x]) => x)[0];
      if (inside) {
        chains.push({
          id: `chain/${at}/${inside}-out-of-${c.id}`,
          at,
          text: `Take the ${w.all.get(inside)?.name ?? inside} out of the ${c.name} and put it on the free table.`,
          plan: [
            step('open', { object: c.id }),
            step('pick', { object: inside }),
            step('move_to', { location: 'free_table' }),
            step('place', { object: 'free_table' }),
          ],
          goal: [`on(${inside}, free_table)`],
          difficulty: 'hard',
        });
      }
      chains.push({
        id: `chain/${at}/open-${c.id}`,
        at,
        text: `Open the ${c.name}.`,
        plan: [step('open', { object: c.id })],
        goal: [`open(${c.id})`],
        difficulty: 'easy',
      });
    }
    const sliceable = [...w.visible.values()].find((x) => x.props['sliceable'] && !x.state['sliced']);
    const knife = [...w.visible.values()].find((x) => x.props['canSlice']);
    if (sliceable && knife) {
      chains.push({
        id: `chain/${at}/slice-${sliceable.id}`,
        at,
        text: `Slice the ${sliceable.name}.`,
        plan: [step('pick', { object: knife.id }), step('slice', { object: sliceable.id })],
        goal: [`sliced(${sliceable.id})`],
        difficulty: 'medium',
      });
    }
    const toggle = [...w.visible.values()].find((x) => x.fixed && x.props['toggleable'] && !x.props['openable'] && x.state['on'] === false);
    if (toggle) {
      chains.push({
        id: `chain/${at}/on-${toggle.id}`,
        at,
        text: `Switch on the ${toggle.name}.`,
        plan: [step('turnon', { object: toggle.id })],
        goal: [`switched_on(${toggle.id})`],
        difficulty: 'easy',
      });
    }
  }
  for (const ch of chains) {
    const world = kitchen(ch.at);
    const ok = await ctx.inWorld(world, async ({ robot, control }) => {
      const played = await playPlan(robot, control, 'raider-recovery', ch.plan);
      const facts = new Set(control.facts());
      return played.ok && ch.goal.every((f) => facts.has(f));
    });
    if (!ok) continue;
    const firsts = [...new Set(ch.plan.map((p) => p.tool))];
    const order: Array<[string, string]> = [];
    for (let i = 0; i < firsts.length; i++) for (let j = i + 1; j < firsts.length; j++) order.push([firsts[i]!, firsts[j]!]);
    out.push(
      mk(
        ch.id,
        world,
        ch.text,
        { task: 'chain', difficulty: ch.difficulty, capability: 'execution' },
        {
          task: 'chain',
          tools: [...HOUSEHOLD, ...ACTION_TOOLS],
          chainSet: firsts,
          order,
          plan: ch.plan,
          goalFacts: ch.goal,
          final: 'Done.',
        },
      ),
    );
  }
}
