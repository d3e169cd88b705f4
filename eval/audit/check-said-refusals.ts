// What a skill's failure says about its arguments, the receptacle, the robot's
// state (e-stop, battery, docking) and the placement, each judged against the
// physics, the catalogue and the robot's belief.
import { type Rule } from './check-read';
import { ID, NUM, THING, exists, holds, recordOf, restsNow, stateIs } from './check-judge';
import { WHO, doing, estopDuring, whereItIs } from './check-said-parts';
import {
  TRIPLE,
  baseAt,
  blockedBy,
  inPosture,
  isReceptacle,
  liesSaid,
  noSurface,
  placeHere,
  pointOf,
  positionSaid,
  within,
} from './check-said-skill-parts';

export const ARGS_AND_STATE: Record<string, readonly Rule[]> = {
  invalid_argument: [
    [new RegExp(`cannot place ${THING} on itself`), (m, j) => holds(j, m[1], m[0]!)],
    [
      new RegExp(`${THING} is not a container; things cannot be put inside it`),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && isReceptacle(j, m[1]!)) j.lie(`said ${m[1]} is not a container, but it is`);
      },
    ],
    [
      /no arm posture "([^"]*)"; the postures are (.+)/,
      (m, j) => {
        const ps = Object.keys(j.c.world.scene.robot.arm?.postures ?? {});
        if (ps.includes(m[1]!)) j.lie(`said there is no posture "${m[1]}", but there is`);
        if (m[2] !== ps.join(', ')) j.lie(`listed the postures as ${m[2]}, but they are ${ps.join(', ')}`);
      },
    ],
    [
      new RegExp(`a wait of (${NUM}) s cannot run: a wait lasts more than 0 and at most 3600 seconds`),
      (m, j) => {
        const s = Number(m[1]);
        if (s > 0 && s <= 3600) j.lie(`refused a wait of ${s} s, which is allowed`);
      },
    ],
    [/there is nothing to say|there is no question to ask/, () => {}],
    [
      /no person "([^"]*)"/,
      (m, j) => {
        if (j.c.world.people.has(m[1]!)) j.lie(`said there is no person "${m[1]}", but there is`);
      },
    ],
    [
      /no place called "([^"]*)"/,
      (m, j) => {
        if (j.c.world.locations.has(m[1]!)) j.lie(`said there is no place "${m[1]}", but there is`);
      },
    ],
    [new RegExp(`${THING} is in the hand; put it down to slice it`), (m, j) => holds(j, m[1], m[0]!)],
    [
      new RegExp(`${THING} was handed to (${ID}); the robot no longer has it`),
      (m, j) => {
        const r = recordOf(j, m[1]!)?.place;
        if (!(r?.kind === 'handed' && r.person === m[3]))
          j.lie(`said ${m[1]} was handed to ${m[3]}, but the robot records ${JSON.stringify(r)}`);
      },
    ],
    [new RegExp(`there is no surface to place on at ${TRIPLE}`), (m, j) => noSurface(j, pointOf(j, m, 1, m[0]!))],
    [/the target charge must be between 1 and 100 percent/, () => {}],
  ],
  receptacle_closed: [
    [
      new RegExp(`${THING} is closed; open it first`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        stateIs(j, m[1]!, 'open', false, m[0]!);
      },
    ],
  ],
  receptacle_full: [
    [
      new RegExp(`no free space (?:in|on) (.+) for ${THING}`),
      (m, j) => {
        exists(j, m[2]!, m[3]);
        holds(j, m[2], m[0]!);
      },
    ],
    [
      new RegExp(`${THING} is full: it holds (\\d+) of (\\d+) \\((.+)\\)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const cap = j.c.world.entities.get(m[1]!)?.spec.receptacle?.capacity;
        if (cap !== Number(m[4])) j.lie(`said ${m[1]} holds at most ${m[4]}, but its capacity is ${cap ?? 'unlimited'}`);
        const items = m[5]!.split(', ');
        if (items.length !== Number(m[3])) j.message(`said it holds ${m[3]} but listed ${items.length}`);
        for (const x of items)
          if (exists(j, x) && !within(j, x, m[1]!)) j.lie(`said ${x} is in ${m[1]}, but neither the robot nor the world has it there`);
      },
    ],
  ],
  not_openable: [
    [
      new RegExp(`${THING} cannot be opened or closed`),
      (m, j) => {
        const e = j.c.world.entities.get(m[1]!);
        if (exists(j, m[1]!, m[2]) && e && (e.spec.properties.openable || e.door)) j.lie(`said ${m[1]} cannot be opened, but it can`);
      },
    ],
  ],
  not_toggleable: [
    [
      new RegExp(`${THING} cannot be switched on or off`),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && j.c.world.entities.get(m[1]!)?.spec.properties.toggleable)
          j.lie(`said ${m[1]} cannot be switched, but it can`);
      },
    ],
  ],
  not_sliceable: [
    [
      new RegExp(`${THING} cannot be sliced`),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && j.c.world.entities.get(m[1]!)?.spec.properties.sliceable)
          j.lie(`said ${m[1]} cannot be sliced, but it can`);
      },
    ],
  ],
  already_done: [
    [
      new RegExp(`${THING} is already (open|closed|on|off|sliced)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const w = m[3]!;
        stateIs(
          j,
          m[1]!,
          w === 'open' || w === 'closed' ? 'open' : w === 'sliced' ? 'sliced' : 'on',
          w === 'open' || w === 'on' || w === 'sliced',
          m[0]!,
        );
      },
    ],
    [/the robot is already docked/, (m, j) => void (j.c.after.docked || j.lie('said it is already docked, but it is not'))],
    [
      /the battery is already at (\d+)%/,
      (m, j) => {
        if (Math.abs(Number(m[1]) - j.c.before.batteryPercent) > 0.6)
          j.lie(`said the battery is at ${m[1]}%, but it is at ${j.c.before.batteryPercent.toFixed(1)}%`);
      },
    ],
  ],
  needs_tool: [
    [
      /slicing needs a knife in the hand; the hand (?:holds (\S+)|is empty)/,
      (m, j) => {
        holds(j, m[1], m[0]!);
        if (m[1] && /knife/.test(j.c.world.entities.get(m[1])?.spec.type ?? m[1]))
          j.lie(`said slicing needs a knife, but the hand holds ${m[1]}`);
      },
    ],
  ],
  estop: [
    [
      /the emergency stop is pressed(?:: the (?:arm|base) cannot move(?: to look| until it is released))?/,
      (m, j) => void (estopDuring(j) || j.lie(`said "${m[0]}", but the emergency stop was not pressed`)),
    ],
    [
      /emergency stop pressed while (.+): the robot stopped where it was(?:; it still holds (\S+))?/,
      (m, j) => {
        if (!estopDuring(j)) j.lie('said the emergency stop was pressed, but it was not');
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  aborted: [
    [
      /stopped while (.+?)(?:; it still holds (\S+))?/,
      (m, j) => {
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  battery_empty: [
    [
      /the battery is empty(?:; the robot cannot drive)?/,
      (m, j) =>
        void (j.c.before.batteryPercent > 0 && j.lie(`said the battery is empty, but it is at ${j.c.before.batteryPercent.toFixed(1)}%`)),
    ],
    [
      /the battery ran out while (.+?)(?:; it still holds (\S+))?/,
      (m, j) => {
        if (j.c.after.batteryPercent > 0) j.lie(`said the battery ran out, but it is at ${j.c.after.batteryPercent.toFixed(1)}%`);
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  timeout: [
    [
      /asked "([^]*)" but nobody answered within (\d+) s/,
      (m, j) => {
        const answered = j.c.world.events.since(j.c.eventsBefore).some((e) => e.type === 'person_said');
        if (answered) j.lie('said nobody answered, but someone spoke during the call');
      },
    ],
    [
      /(.+) took too long and was stopped(?:; it still holds (\S+))?/,
      (m, j) => {
        doing(j, m[1]!);
        if (m[2]) holds(j, m[2], m[0]!);
      },
    ],
  ],
  no_arm: [[/(.+) has no arm/, (_m, j) => void (j.c.world.scene.robot.arm && j.lie('said the robot has no arm, but it has one'))]],
  unsupported: [
    [
      /(.+) is fixed in place; it cannot drive/,
      (_m, j) => void (j.c.world.scene.robot.kind !== 'fixed_arm' && j.lie('said the robot is fixed in place, but it drives')),
    ],
    [
      /this scene has no (charging dock|shelter entry)/,
      (m, j) => {
        const kind = m[1] === 'charging dock' ? 'dock' : 'entry';
        if ([...j.c.world.locations.values()].some((l) => l.kind === kind)) j.lie(`said the scene has no ${m[1]}, but it has one`);
      },
    ],
  ],
  docked: [
    [
      /the robot is docked(?: in its shelter)?; undock first(?: \(driving inside the shelter is not allowed\))?/,
      (m, j) => void (j.c.before.docked || j.lie('said the robot is docked, but it was not')),
    ],
  ],
  not_docked: [
    [
      /the robot is not docked|charging happens at the dock; dock first/,
      (m, j) => void (j.c.before.docked && j.lie(`said "${m[0]}", but the robot was docked`)),
    ],
  ],
  path_blocked: [[new RegExp(`the (?:way to (${ID}|${WHO})|step) is blocked by (.+)`), (m, j) => blockedBy(j, m[4]!, m[1])]],
  arm_outside_footprint: [
    [
      new RegExp(
        `(?:the arm is|(${ID}) in the hand sticks) (\\d+) cm outside the base footprint \\(posture: (\\w+)\\); (?:move it to (\\w+) before driving|(place what the hand holds first): it is too big to carry|even its (\\w+) posture does not fit over the base, so the robot cannot drive)`,
      ),
      (m, j) => {
        if (m[1]) holds(j, m[1], m[0]!);
        if (m[3] !== 'custom') inPosture(j, m[3]!);
        if (m[5] && !m[1]) j.lie(`said to place what the hand holds first, but it named nothing in the hand`);
        if (m[6]) {
          inPosture(j, m[6]);
          if (j.c.after.held) j.lie(`said only the posture keeps the robot from driving, but the hand holds ${j.c.after.held}`);
        }
      },
    ],
  ],
  not_perceived: [
    [
      new RegExp(
        `${THING} has not been (?:perceived yet; perceive the table it is on first|seen from where the robot has been; go where it is and look)`,
      ),
      (m, j) => {
        if (exists(j, m[1]!, m[2]) && j.c.beliefBefore.has(m[1]!) && recordOf(j, m[1]!))
          j.lie(`said ${m[1]} has not been perceived, but the robot records it`);
      },
    ],
  ],
  stale_observation: [
    [
      new RegExp(
        `${THING} was perceived(?: at (${ID}))? before the robot last moved, so its pose is stale; (?:go back to (${ID}) and perceive it there again|perceive (\\S+) again)`,
      ),
      (m, j) => {
        const r = recordOf(j, m[1]!);
        if (!r) return void j.lie(`said ${m[1]} was perceived, but the robot records nothing of it`);
        if (r.baseMoves === j.c.world.body.baseMoves) j.lie(`said ${m[1]}'s record is stale, but the base has not moved since`);
        if ((m[3] ?? undefined) !== (r.at ?? undefined))
          j.lie(`said ${m[1]} was perceived at ${m[3] ?? 'no place'}, but it was at ${r.at ?? 'no place'}`);
      },
    ],
  ],
  not_at_entry: [
    [
      new RegExp(`docking starts from the shelter entry pose \\((${ID})\\); the robot is (${NUM}) m from it and turned (${NUM})° off`),
      (m, j) => {
        const l = j.c.world.locations.get(m[1]!);
        if (!l) return void j.lie(`named the entry ${m[1]}, which is no place`);
        const b = j.c.before.base;
        const d = Math.hypot(b.pos.x - l.pose.position[0], b.pos.z - l.pose.position[2]);
        if (Math.abs(d - Number(m[2])) > 0.06) j.lie(`said the robot is ${m[2]} m from ${m[1]}, but it is ${d.toFixed(2)} m`);
        let off = Math.abs((b.yaw * 180) / Math.PI - l.pose.yaw) % 360;
        if (off > 180) off = 360 - off;
        if (Math.abs(off - Number(m[3])) > 2) j.lie(`said the robot is turned ${m[3]}° off, but it is ${off.toFixed(0)}°`);
      },
    ],
  ],
  not_here: [
    [
      new RegExp(`scans are made at a point of interest; the robot is at (${ID}|no known place)(?:; drive to (\\S+) first)?`),
      (m, j) => {
        const here = placeHere(j);
        const at = m[1] === 'no known place' ? undefined : m[1];
        if (here.sure && here.id !== at) j.lie(`said the robot is at ${m[1]}, but it stands at ${here.id ?? 'no named place'}`);
        if (at && j.c.world.locations.get(at)?.kind === 'poi') j.lie(`refused to scan at ${at}, which is a point of interest`);
      },
    ],
    [new RegExp(`the robot is at (${ID}), not (\\S+); drive there first`), (m, j) => baseAt(j, m[1]!, m[0]!)],
  ],
  placement_failed: [
    [
      new RegExp(`${THING} was (released over|released on|set into|set on) (.+?) but did not stay there; it is (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        const t = new RegExp(`^${THING}$`).exec(m[4]!);
        const rel = /over|into/.test(m[3]!) ? 'in' : 'on';
        if (t && exists(j, t[1]!, t[2])) {
          const r = j.c.after.places.get(m[1]!);
          // Still there (as it was to be: in, or on and only on), it stayed.
          const there = rel === 'in' ? r?.kind === 'in' && r.id === t[1] : r?.kind === 'on' && r.ids.size === 1 && r.ids.has(t[1]!);
          if (there) j.lie(`said ${m[1]} did not stay ${rel} ${t[1]}, but it is there`);
        }
        whereItIs(j, m[1], `it is ${m[5]}`);
      },
    ],
    [
      new RegExp(
        `${THING} was set down (in|on) (${ID}) but lies (on its side|upside down) \\(tilted (\\d+)° from upright\\) at ${TRIPLE}, so it does not hold things`,
      ),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        restsNow(j, m[1]!, { kind: m[3] as 'in' | 'on', id: m[4]! }, m[0]!);
        liesSaid(j, m[1]!, m[5], m[6]);
        positionSaid(j, m[1]!, pointOf(j, m, 7, m[0]!), `${m[1]}'s position`);
      },
    ],
  ],
  no_free_space: [
    [
      new RegExp(`${THING} \\((\\d+)×(\\d+) cm\\) does not fit (?:into|on) (.+)`),
      (m, j) => {
        exists(j, m[1]!, m[2]);
        holds(j, m[1], m[0]!);
      },
    ],
    [
      new RegExp(`no free space (?:in|on) (.+) for ${THING}`),
      (m, j) => {
        exists(j, m[2]!, m[3]);
        holds(j, m[2], m[0]!);
      },
    ],
  ],
};
