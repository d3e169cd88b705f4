// The audit judges every output: each case replays a short script in a real
// world and plants, as the last call's output, a claim a tool once made (or
// could make), then checks the audit's verdict on it. World-model answers are
// judged against the robot's belief, reports of what happened against the physics.
import { describe, expect, it } from 'vitest';
import { toBase } from '../../agents/tools/frames';
import type { ToolResult } from '../../agents/tools/tool';
import { yawOf } from '../../sim/math';
import type { SimWorld } from '../../sim/world/sim-world';
import { openSim } from '../../robot/sim/open';
import { type CallUnderCheck, type Unjudged, checkCall } from './check';
import { type Episode, type Said, replay } from './run';
import { readWorld } from './truth';
import type { ScriptStep } from './script';
import pushedOnPick from './pushed-on-pick.fixture.json';

const POSE = /^(\S+): position \{"x":(-?[\d.]+),"y":(-?[\d.]+),"z":(-?[\d.]+)\} \(base frame\), (.+)$/;

/** The same result with its text replaced. */
const saying =
  (text: string | ((was: string, w: SimWorld) => string), ok = true): Said =>
  (r: ToolResult | undefined, w: SimWorld) => ({ ok, content: typeof text === 'string' ? text : text(r?.content ?? '', w) });

/** A pose answer with its position rewritten. */
function repose(was: string, f: (x: number, y: number, z: number) => [number, number, number], where?: string): string {
  const m = POSE.exec(was);
  if (!m) throw new Error(`not a pose answer: ${was}`);
  const [x, y, z] = f(Number(m[2]), Number(m[3]), Number(m[4]));
  return `${m[1]}: position ${JSON.stringify({ x, y, z })} (base frame), ${where ?? m[5]}`;
}

async function judge(ep: Episode, steps: ScriptStep[], said?: Said): Promise<string[]> {
  const f = await replay(ep, steps, said ? { said } : {});
  return f.map((x) => `${x.class}: ${x.detail}`);
}

const FRUITS: Episode = { scene: 'tabletop/fruits', set: 'world-model', seed: 1 };
const LEMON: ScriptStep[] = [{ tool: 'get_object_poses', args: { object_name: 'lemon_1' } }];

describe('world-model answers are judged against the belief, by value and frame', () => {
  it('a pose as the robot perceived it is not a lie', async () => {
    expect(await judge(FRUITS, LEMON)).toEqual([]);
  }, 60_000);

  it('an axis swap (x and y) is caught', async () => {
    const f = await judge(
      FRUITS,
      LEMON,
      saying((was) => repose(was, (x, y, z) => [y, x, z])),
    );
    expect(f).toEqual([expect.stringMatching(/^lies: get_object_poses: .*lemon_1's pose/)]);
  }, 60_000);

  it('a mirrored axis (y for left, negated) is caught', async () => {
    const f = await judge(
      FRUITS,
      LEMON,
      saying((was) => repose(was, (x, y, z) => [x, -y, z])),
    );
    expect(f).toEqual([expect.stringMatching(/^lies: get_object_poses: .*lemon_1's pose/)]);
  }, 60_000);

  it("after a move the robot did not see, the object's true new pose is a lie; its pose as last perceived is not", async () => {
    // The lemon slides 25 cm along the table after the robot perceived it, with no look since:
    // the robot's belief keeps the pose it perceived.
    const moved = (w: SimWorld): void => {
      const b = w.world.getRigidBody(w.entity('lemon_1').body);
      const t = b.translation();
      b.setTranslation({ x: t.x, y: t.y, z: t.z + 0.25 }, true);
      for (let i = 0; i < 30; i++) w.step();
    };
    let truth = '';
    const fresh = await judge(
      FRUITS,
      LEMON,
      saying((was, w) => {
        const seen = w.belief.get('lemon_1')!.pose.p;
        moved(w);
        const now = w.pose('lemon_1').p;
        expect(Math.hypot(now.x - seen.x, now.z - seen.z)).toBeGreaterThan(0.2);
        // What a world-model tool reading the physics would answer: the true pose, in the base frame.
        const base = w.body.basePose;
        const t = toBase([now.x, now.y, now.z], { position: [base.p.x, base.p.y, base.p.z], yawDeg: (yawOf(base.q) * 180) / Math.PI });
        truth = repose(was, () => [t.x, t.y, t.z]);
        return was;
      }),
    );
    expect(fresh).toEqual([]);
    const f = await judge(
      FRUITS,
      LEMON,
      saying((_was, w) => {
        moved(w);
        return truth;
      }),
    );
    expect(f).toEqual([expect.stringMatching(/^lies: get_object_poses: .*lemon_1's pose/)]);
  }, 120_000);

  it('a support the robot never perceived ("in microwave_1" for an object it saw on the table) is a lie', async () => {
    const f = await judge(
      FRUITS,
      LEMON,
      saying((was) => repose(was, (x, y, z) => [x, y, z], 'in bowl_1.')),
    );
    expect(f).toEqual([
      expect.stringMatching(/^lies: get_object_poses: said lemon_1 is in bowl_1, but the robot's belief has it on table_1/),
    ]);
  }, 60_000);
});

describe('get_empty_storages', () => {
  const KITCHEN: Episode = { scene: 'kitchen', set: 'world-model', seed: 1 };
  const ASK: ScriptStep[] = [{ tool: 'get_empty_storages', args: {} }];

  it('an open storage the robot cannot see into called empty while something is in it (sink_1, bowl_3) is a lie', async () => {
    const f = await judge(KITCHEN, ASK, saying('Empty storages: sink_1.'));
    expect(f).toContainEqual(expect.stringMatching(/^lies: get_empty_storages: said sink_1 is empty, but bowl_3 is in it/));
  }, 60_000);

  it('a bowl emptied out of view, called empty, is a lie: the robot last saw something in it', async () => {
    // The robot perceives the lemon put in the bowl; then, out of its sight, the lemon leaves it.
    const f = await judge(
      FRUITS,
      [{ tool: 'get_empty_storages', args: {} }],
      saying((_was, w) => {
        const seen = w.belief.get('lemon_1')!;
        w.belief.set({ ...seen, place: { kind: 'in', id: 'bowl_1' } });
        return 'Empty storages: bowl_1, trash_1.';
      }),
    );
    expect(f).toContainEqual(
      expect.stringMatching(/^lies: get_empty_storages: said bowl_1 is empty, but the robot's belief has lemon_1 in it/),
    );
  }, 60_000);
});

describe('people', () => {
  const ASSISTIVE: Episode = { scene: 'kitchen/assistive', set: 'raider-assistive', seed: 1 };

  it('an unrecognised person named ("Humans around: adriana" beside "Nobody is recognized") is a leak', async () => {
    const steps: ScriptStep[] = [
      { tool: 'recognize_humans', args: {} },
      { tool: 'check_humans_around', args: {} },
    ];
    expect(await judge(ASSISTIVE, steps)).toEqual([]);
    const f = await judge(ASSISTIVE, steps, saying('Humans around: adriana.'));
    expect(f).toContainEqual(expect.stringMatching(/^leaks: check_humans_around: named adriana, a person the robot does not recognise/));
  }, 120_000);

  it('recognising someone the robot cannot recognise is a lie', async () => {
    const f = await judge(ASSISTIVE, [{ tool: 'recognize_humans', args: {} }], saying('Recognized: Adriana (adriana).'));
    expect(f).toContainEqual(expect.stringMatching(/^lies: recognize_humans: recognised adriana, whom the robot cannot recognise/));
  }, 60_000);
});

describe('failed results and free text', () => {
  it('a failure that says an object is gone while it lies where it was seen is a lie', async () => {
    const summary = 'the fingers found nothing at the place where lemon_1 was last seen; it is not there any more';
    const f = await judge(
      { scene: 'tabletop/fruits', set: 'alrm', seed: 1 },
      [
        { tool: 'get_objects', args: {} },
        { tool: 'pick', args: { object_name: 'lemon_1' } },
      ],
      // A skill's result carries its outcome; the text is its rendering.
      () => ({ ok: false, content: `Failed (skill_failure): ${summary}.`, data: { ok: false, code: 'skill_failure', summary } }),
    );
    expect(f).toContainEqual(expect.stringMatching(/^lies: pick: said lemon_1 was not where it was last seen, but it was there/));
  }, 120_000);

  it('"place what the hand holds first" with nothing in the hand is a lie', async () => {
    const failed =
      (summary: string): Said =>
      () => ({
        ok: false,
        content: `Failed (arm_outside_footprint): ${summary}.`,
        data: { ok: false, code: 'arm_outside_footprint', summary },
      });
    const ep: Episode = { scene: 'kitchen', set: 'alrm', seed: 1 };
    const steps: ScriptStep[] = [{ tool: 'get_objects', args: {} }];
    const empty = await judge(
      ep,
      steps,
      failed('the arm is 12 cm outside the base footprint (posture: custom); place what the hand holds first: it is too big to carry'),
    );
    expect(empty).toContainEqual(
      expect.stringMatching(/^lies: get_objects: said to place what the hand holds first, but it named nothing/),
    );
  }, 120_000);

  it('a sentence the checker cannot read leaves the output unjudged, never passed in silence', async () => {
    const unjudged: Unjudged[] = [];
    const f = await replay(FRUITS, LEMON, { said: saying('lemon_1 is probably fine.'), unjudged });
    expect(f).toEqual([]);
    expect(unjudged).toEqual([{ class: 'lies', reason: expect.stringContaining('unread sentence in get_object_poses') }]);
  }, 60_000);
});

describe('the battery below 5 %', () => {
  const FARM: Episode = { scene: 'farm', set: 'farm', seed: 1 };
  const LOW: ScriptStep[] = [{ event: { type: 'set_battery', percent: 3 } }, { tool: 'battery_status', args: {} }];

  it('its true reading is not a lie; a level or charge it does not have is', async () => {
    expect(await judge(FARM, LOW)).toEqual([]);
    const okay = await judge(
      FARM,
      LOW,
      saying((was) => was.replace(/\((\w+);/, '(okay;')),
    );
    expect(okay).toContainEqual(expect.stringMatching(/^lies: battery_status: said the battery is okay/));
    const more = await judge(
      FARM,
      LOW,
      saying((was) => was.replace(/^Battery \d+%/, 'Battery 7%')),
    );
    expect(more).toContainEqual(expect.stringMatching(/^lies: battery_status: said the battery is at 7%/));
  }, 120_000);
});

/** The result with a rewrite applied to its text, and to its outcome's summary when it carries one. */
const rewriting =
  (f: (text: string) => string): Said =>
  (r) => {
    if (!r) throw new Error('the call returned nothing');
    const d = r.data as { summary?: unknown } | undefined;
    const data = d && typeof d.summary === 'string' ? { ...d, summary: f(d.summary) } : r.data;
    return { ...r, content: f(r.content), data };
  };

describe('check_events attribution', () => {
  const DFKI: Episode = { scene: 'tabletop/fruits', set: 'dfki', seed: 1 };
  const MOVED: ScriptStep[] = [
    { tool: 'check_events', args: {} },
    { event: { type: 'object_moved', object: 'lemon_1', to: [0.1, 0.9, 0.1], by: 'a person' } },
    { tool: 'check_events', args: {} },
  ];

  it("a person's move is theirs; said of the robot, or left out, it is a lie", async () => {
    expect(await judge(DFKI, MOVED)).toEqual([]);
    const robot = await judge(
      DFKI,
      MOVED,
      rewriting((t) => t.replace('a person moved', 'the robot moved')),
    );
    expect(robot).toContainEqual(expect.stringMatching(/^lies: check_events: said the robot moved lemon_1, but a person did/));
    const none = await judge(DFKI, MOVED, saying('No events.'));
    expect(none).toContainEqual(expect.stringMatching(/^lies: check_events: said there were no events, but 1 happened/));
  }, 120_000);
});

describe('farm scan readings', () => {
  const FARM: Episode = { scene: 'farm', set: 'farm', seed: 1 };
  const SCAN: ScriptStep[] = [
    { tool: 'undock', args: {} },
    { tool: 'navigate', args: { location: 'poi_1' } },
    { tool: 'scan', args: {} },
  ];

  it('the true readings pass; a health, an index or a height a plant does not have is a lie', async () => {
    let was = '';
    expect(await judge(FARM, SCAN, (r) => ((was = r?.content ?? ''), r))).toEqual([]);
    expect(was).toMatch(/scanned poi_1, \d+ plants?: /);
    const health = await judge(
      FARM,
      SCAN,
      rewriting((t) => t.replace(/, (healthy|stressed)\b/, ', diseased')),
    );
    expect(health).toContainEqual(expect.stringMatching(/^lies: scan: read \S+ as diseased, but it is (healthy|stressed)/));
    const ndvi = await judge(
      FARM,
      SCAN,
      rewriting((t) => t.replace(/NDVI \d\.\d+/, 'NDVI 0.05')),
    );
    expect(ndvi).toContainEqual(expect.stringMatching(/^lies: scan: read \S+'s NDVI as 0.05, outside the \w+ band/));
    const tall = await judge(
      FARM,
      SCAN,
      rewriting((t) => t.replace(/, (\d+) cm, /, (_m, cm: string) => `, ${Number(cm) + 40} cm, `)),
    );
    expect(tall).toContainEqual(expect.stringMatching(/^lies: scan: read \S+ as \d+ cm tall, but it is \d+ cm/));
  }, 180_000);
});

describe('free text in a success message', () => {
  it('a place said to land where it did not is a lie', async () => {
    const f = await judge(
      { scene: 'tabletop/fruits', set: 'alrm', seed: 1 },
      [
        { tool: 'get_objects', args: {} },
        { tool: 'pick', args: { object_name: 'lemon_1' } },
        { tool: 'place', args: { target: 'table_1' } },
      ],
      rewriting((t) => t.replace(/\bon table_1\b/, 'into bowl_1')),
    );
    expect(f).toContainEqual(expect.stringMatching(/^lies: place: .*lemon_1.*bowl_1/));
  }, 120_000);
});

describe('path and motion agree', () => {
  it('"arrived" where check_free_path said the way is blocked by adriana, with neither moved since, is a lie', async () => {
    const { control } = await openSim('kitchen/assistive', { seed: 1 });
    try {
      const w = control.world;
      const r = readWorld(w);
      const adriana = w.people.get('adriana')!.position;
      const summary = 'arrived at medicine_counter';
      const c: CallUnderCheck = {
        world: w,
        set: 'raider-recovery',
        tool: 'move_to',
        args: { location: 'medicine_counter' },
        result: { ok: true, content: `Success: ${summary}.`, data: { ok: true, summary } },
        thrown: undefined,
        before: r,
        after: r,
        knownBefore: new Set(),
        knownAfter: new Set(),
        learnt: new Set(),
        peopleSeen: new Set(),
        mentioned: new Set(),
        movedByEvent: new Set(),
        beliefBefore: new Map(w.belief.objects),
        ended: r.time,
        eventsBefore: w.events.lastId,
        eventsRead: w.events.lastId,
        recognised: new Set(),
        added: new Map(),
        props: new Map(),
        paths: new Map([
          ['medicine_counter', { obstacle: 'adriana', base: r.base.pos, obstacleAt: { x: adriana.x, y: adriana.y, z: adriana.z } }],
        ]),
      };
      const f = checkCall(c, new Map()).map((x) => `${x.class}: ${x.detail}`);
      expect(f).toContainEqual(
        expect.stringMatching(
          /^lies: move_to: said it arrived at medicine_counter, but check_free_path said the way there is blocked by adriana/,
        ),
      );
    } finally {
      control.dispose();
    }
  }, 60_000);
});

describe('incidents', () => {
  it('an incident of "an object the robot had not perceived" when every object in reach is known is a lie', async () => {
    const also = 'an object the robot had not perceived was knocked over; it is on table_1';
    const f = await judge(
      { scene: 'tabletop/fruits', set: 'alrm', seed: 1 },
      [
        { tool: 'get_objects', args: {} },
        { tool: 'pick', args: { object_name: 'lemon_1' } },
        { tool: 'place', args: { target: 'table_1' } },
      ],
      (r) => {
        const d = r!.data as { summary: string; incidents?: string[] };
        return { ...r!, content: `${r!.content} Also: ${also}.`, data: { ...d, incidents: [...(d.incidents ?? []), also] } };
      },
    );
    expect(f).toContainEqual(
      expect.stringMatching(
        /^lies: place: said an object the robot had not perceived was knocked over, but the readings before and after the call do not show it/,
      ),
    );
  }, 120_000);

  it('"X was pushed N cm along Y" is read and judged: its distance and support against the readings', async () => {
    // The box slips from the fingers and shoves metal_box_1 3 cm along the table.
    const BOXES: Episode = { scene: 'tabletop/boxes', set: 'alrm', seed: 7023 };
    const steps: ScriptStep[] = [
      { tool: 'get_objects', args: {} },
      { tool: 'pick', args: { object_name: 'cardboard_box_1' } },
      { tool: 'move_to', args: { pose: { position: { x: 0.253, y: -0.043, z: 0.01 } } } },
    ];
    const PUSH = /metal_box_1 was pushed \d+ cm along table_1/;
    const unjudged: Unjudged[] = [];
    const f = await replay(BOXES, steps, {
      unjudged,
      said: (r) => {
        expect(r?.content).toMatch(PUSH);
        return r;
      },
    });
    expect(f).toEqual([]);
    expect(unjudged).toEqual([]);
    const planted =
      (to: string): Said =>
      (r) => {
        const d = r!.data as { incidents: string[] };
        const incidents = d.incidents.map((i) => i.replace(PUSH, to));
        return { ...r!, content: r!.content.replace(PUSH, to), data: { ...d, incidents } };
      };
    expect(await judge(BOXES, steps, planted('metal_box_1 was pushed 30 cm along table_1'))).toContainEqual(
      expect.stringMatching(/^lies: move_to: said metal_box_1 was pushed 30 cm along table_1, but the readings/),
    );
    expect(await judge(BOXES, steps, planted('metal_box_1 was pushed 3 cm within cardboard_box_1'))).toContainEqual(
      expect.stringMatching(/^lies: move_to: said metal_box_1 was pushed 3 cm within cardboard_box_1, but the readings/),
    );
  }, 120_000);
});

describe('a ball rolling as a skill begins', () => {
  // A person's move sets plum_1 rolling; it is still rolling as pick begins.
  const ROLL: Episode = { scene: 'tabletop/fruits', set: 'alrm', seed: 1161 };
  const steps: ScriptStep[] = [
    { event: { type: 'object_moved', object: 'sponge_1', to: [0.157, 1.076, 0], by: 'a person' } },
    { tool: 'pick', args: { object_name: 'lemon' } },
  ];
  const ALSO = /plum_1 was already moving and went on \d+ cm along table_1; it is now on table_1/;

  it('is said to have gone on (not knocked over, not pushed), and that is judged true', async () => {
    const unjudged: Unjudged[] = [];
    const f = await replay(ROLL, steps, {
      unjudged,
      said: (r) => {
        expect(r?.content).toMatch(ALSO);
        return r;
      },
    });
    expect(f).toEqual([]);
    expect(unjudged).toEqual([]);
  }, 60_000);

  it('"knocked over" of a ball is a lie; so is "pushed" by more than it went', async () => {
    const planted =
      (to: string): Said =>
      (r) => {
        const d = r!.data as { incidents: string[] };
        return { ...r!, content: r!.content.replace(ALSO, to), data: { ...d, incidents: d.incidents.map((i) => i.replace(ALSO, to)) } };
      };
    expect(await judge(ROLL, steps, planted('plum_1 was knocked over; it is now on table_1'))).toContainEqual(
      expect.stringMatching(/^lies: pick: said plum_1 was knocked over, but the readings/),
    );
    expect(
      await judge(ROLL, steps, planted('plum_1 was already moving and went on 60 cm along table_1; it is now on table_1')),
    ).toContainEqual(
      expect.stringMatching(/^lies: pick: said plum_1 was already moving and went on 60 cm along table_1, but the readings/),
    );
  }, 60_000);
});

describe('a placement that did not stay', () => {
  // Watched until it came to rest, plum_1 rolled out of view: the robot says it lost sight of it.
  // (A cup no longer goes on a peach: a ball's believed box no longer turns with it, and is too small.)
  it('says where the object is once the world has settled (plum_1 rolled off the peach and out of view)', async () => {
    const steps: ScriptStep[] = [
      { tool: 'ask', args: { question: 'could you look at me?' } },
      { tool: 'pick', args: { object: 'plum_1' } },
      { tool: 'place', args: { object: 'peach_1' } },
    ];
    const unjudged: Unjudged[] = [];
    const f = await replay({ scene: 'tabletop/fruits', set: 'raider-recovery', seed: 1224 }, steps, {
      unjudged,
      said: (r) => {
        expect(r?.content).toMatch(
          /^Failed \(placement_failed\): plum_1 \(plum\) was released on peach_1 \(peach\) but did not stay there; it is out of sight now\./,
        );
        return r;
      },
    });
    expect(f).toEqual([]);
    expect(unjudged).toEqual([]);
  }, 60_000);
});

describe('a pick whose object moved as the fingers came down', () => {
  // 100 steps leave metal_box_1 where the robot saw it and wooden_box_1 on the hand; the pick's descent moves the metal box 18 cm.
  const EP: Episode = { scene: 'tabletop/boxes', set: 'alrm', seed: 1023 };
  const steps = pushedOnPick as ScriptStep[];
  const MISS = /it moved (\d+) cm from where it was seen as they came down/;

  it('says so, with how far, not that it "was not where it was last seen"; judged true', async () => {
    const unjudged: Unjudged[] = [];
    const f = await replay(EP, steps, {
      unjudged,
      said: (r) => {
        expect(r?.content).toMatch(MISS);
        return r;
      },
    });
    expect(f).toEqual([]);
    expect(unjudged).toEqual([]);
  }, 120_000);

  it('"found nothing where it was last seen" there is a lie; so is a distance it did not move', async () => {
    const planted =
      (summary: string): Said =>
      (r) => ({
        ...r!,
        content: r!.content.replace(/^Failed \(skill_failure\): [^.]+\./, `Failed (skill_failure): ${summary}.`),
        data: { ...(r!.data as object), summary },
      });
    expect(
      await judge(
        EP,
        steps,
        planted('the fingers found nothing at the place where metal_box_1 (metal box) was last seen; it is not there any more'),
      ),
    ).toContainEqual(expect.stringMatching(/^lies: pick: said metal_box_1 was not where it was last seen, but it was there/));
    expect(
      await judge(
        EP,
        steps,
        planted(
          'the fingers came down at metal_box_1 (metal box) but it was not between them as they closed; it moved 60 cm from where it was seen as they came down',
        ),
      ),
    ).toContainEqual(expect.stringMatching(/^lies: pick: said metal_box_1 moved 60 cm from where it was seen, but it is/));
  }, 120_000);
});

describe('world-model answers that say when (a record, its age, the hand, a handle for a person)', () => {
  /** The pose answer with "; <how>." in place of the tool's own "; last seen …" clause. */
  const withHow =
    (how: (seenAt: number, now: number) => string): Said =>
    (r, w) => {
      expect(r!.content).toMatch(/; last seen at [\d.]+ s on table_1 \(now [\d.]+ s\)\.$/);
      return { ok: true, content: `${r!.content.replace(/; [^;]*\.$/, '')}; ${how(w.belief.get('lemon_1')!.time, w.time)}.` };
    };

  it('"last seen at T s on table_1 (now N s)" is read and judged: the record\'s time and place, the clock', async () => {
    expect(
      await judge(
        FRUITS,
        LEMON,
        withHow((t, now) => `last seen at ${t.toFixed(1)} s on table_1 (now ${now.toFixed(1)} s)`),
      ),
    ).toEqual([]);
    const late = await judge(
      FRUITS,
      LEMON,
      withHow((t, now) => `last seen at ${(t + 5).toFixed(1)} s on table_1 (now ${now.toFixed(1)} s)`),
    );
    expect(late).toEqual([
      expect.stringMatching(/^lies: get_object_poses: said lemon_1 was last seen at [\d.]+ s, but the robot's record is from/),
    ]);
    const where = await judge(
      FRUITS,
      LEMON,
      withHow((t, now) => `last seen at ${t.toFixed(1)} s in bowl_1 (now ${now.toFixed(1)} s)`),
    );
    expect(where).toEqual([
      expect.stringMatching(/^lies: get_object_poses: said lemon_1 is in bowl_1, but the robot's belief has it on table_1/),
    ]);
    const held = await judge(
      FRUITS,
      LEMON,
      withHow(() => "in the robot's hand now"),
    );
    expect(held).toEqual([
      expect.stringMatching(/^lies: get_object_poses: said lemon_1 is in the robot's hand, but the hand holds nothing/),
    ]);
  }, 120_000);

  it('"Humans around: Adriana (adriana)" (a name with its id, the form beside handles) reads whole, and the name is judged', async () => {
    const ASSISTIVE: Episode = { scene: 'kitchen/assistive', set: 'raider-assistive', seed: 1 };
    const unjudged: Unjudged[] = [];
    const f = await replay(ASSISTIVE, [{ tool: 'check_humans_around', args: {} }], {
      said: saying('Humans around: Adriana (adriana).'),
      unjudged,
    });
    expect(f).toContainEqual({ class: 'leaks', detail: 'check_humans_around: named adriana, a person the robot does not recognise' });
    expect(unjudged).toEqual([]);
  }, 60_000);
});

describe('a door opened only part of the way', () => {
  it('is read whole; its state said against the door', async () => {
    const KITCHEN: Episode = { scene: 'kitchen', set: 'alrm', seed: 1 };
    const partly =
      (tail: string): Said =>
      () => {
        const summary = `fridge_1 (fridge) opened only part of the way: the handle left the arm's reach along the door's swing; it is 3% open${tail}`;
        return { ok: false, content: `Failed (out_of_reach): ${summary}.`, data: { ok: false, code: 'out_of_reach', summary } };
      };
    const unjudged: Unjudged[] = [];
    // The fridge is shut: 3 % open counts as closed.
    const f = await replay(KITCHEN, [{ tool: 'get_objects', args: {} }], { said: partly(', which counts as closed'), unjudged });
    expect({ f, unjudged }).toEqual({ f: [], unjudged: [] });
    const open = await judge(KITCHEN, [{ tool: 'get_objects', args: {} }], partly(''));
    expect(open).toContainEqual(expect.stringMatching(/^lies: get_objects: said fridge_1 is open, but it is closed/));
  }, 120_000);
});

describe("the operator's word in the world model (add_object, set_object_property)", () => {
  const ADD: ScriptStep = { tool: 'add_object', args: { object_name: 'sponge_4', parent_name: 'table_1', object_type: 'sponge' } };
  const SET: ScriptStep = { tool: 'set_object_property', args: { object_name: 'lemon_1', property_name: 'owner', value: 'ann' } };

  it('"X.p = "v" (operator-set, not perceived)." is read and judged: the value given passes, another is a lie', async () => {
    const unjudged: Unjudged[] = [];
    expect(await replay(FRUITS, [...LEMON, SET], { unjudged }).then((f) => f.map((x) => x.detail))).toEqual([]);
    expect(unjudged).toEqual([]);
    const f = await judge(FRUITS, [...LEMON, SET], saying('lemon_1.owner = "bob" (operator-set, not perceived).'));
    expect(f).toEqual([expect.stringMatching(/^lies: set_object_property: said lemon_1\.owner = "bob", but the value given was "ann"/)]);
  }, 60_000);

  it('"Added X on Y (operator-set: …)." is read; an added node is a node of the world model in what later answers list', async () => {
    const unjudged: Unjudged[] = [];
    // The add's own answer, then a failed add whose message lists every node, the operator's among them.
    const bad: ScriptStep = { tool: 'add_object', args: { object_name: 'cloth_1', parent_name: 'nowhere_9' } };
    expect(await replay(FRUITS, [ADD], { unjudged })).toEqual([]);
    expect(await replay(FRUITS, [ADD, bad], { unjudged })).toEqual([]);
    expect(unjudged).toEqual([]);
    // Left out of the list, the operator's node is missed.
    const f = await judge(
      FRUITS,
      [ADD, bad],
      saying((was) => was.replace(', sponge_4', '')),
    );
    expect(f).toEqual([expect.stringMatching(/^lies: add_object: left sponge_4 out of the world model's nodes/)]);
  }, 60_000);

  it('"(operator-set: the robot has not perceived it)" of an object the robot perceived is a lie', async () => {
    const f = await judge(FRUITS, [...LEMON, ADD], saying('Added lemon_1 on table_1 (operator-set: the robot has not perceived it).'));
    expect(f).toContainEqual(expect.stringMatching(/^lies: add_object: said the robot has not perceived lemon_1, but it has/));
  }, 60_000);
});

describe("check_free_path's failures", () => {
  it('"No path to X: no known place to approach X from." is read: true of a fence no place serves, a lie of a mug on a served counter', async () => {
    const unjudged: Unjudged[] = [];
    const fence = await replay(
      { scene: 'farm', set: 'raider-assistive', seed: 1090 },
      [{ tool: 'check_free_path', args: { target: 'fence_12' } }],
      {
        unjudged,
        said: (r) => {
          expect(r).toMatchObject({ ok: false, content: 'No path to fence_12: no known place to approach fence_12 from.' });
          return r;
        },
      },
    );
    expect(fence).toEqual([]);
    expect(unjudged).toEqual([]);
    const mug = await judge(
      { scene: 'kitchen/assistive', set: 'raider-assistive', seed: 1 },
      [{ tool: 'check_free_path', args: { target: 'mug_1' } }],
      saying('No path to mug_1: no known place to approach mug_1 from.', false),
    );
    expect(mug).toEqual([
      expect.stringMatching(/^lies: check_free_path: said there is no known place to approach mug_1 from, but \S+ serves/),
    ]);
  }, 60_000);
});

describe('check_obj_relationship inside an open storage the robot has not looked into', () => {
  const EP: Episode = { scene: 'kitchen', set: 'raider-preferences', seed: 2011 };
  const ASK: ScriptStep[] = [{ tool: 'check_obj_relationship', args: { relationship: 'inside', obj: 'sink_1' } }];

  it('says the contents are not known (bowl_3 is in sink_1, out of view), and that is judged true', async () => {
    const unjudged: Unjudged[] = [];
    const f = await replay(EP, ASK, {
      unjudged,
      said: (r) => {
        expect(r?.content).toBe(
          'No objects inside sink_1 (sink) (the robot has not looked inside sink_1 since something could have changed there, so what is inside is not known).',
        );
        return r;
      },
    });
    expect(f).toEqual([]);
    expect(unjudged).toEqual([]);
  }, 60_000);

  it('"No objects inside sink_1" without the hedge is a lie', async () => {
    const f = await judge(EP, ASK, saying('No objects inside sink_1 (sink).'));
    expect(f).toContainEqual(expect.stringMatching(/^lies: check_obj_relationship: said nothing is inside sink_1, but bowl_3 is in it/));
  }, 60_000);
});
