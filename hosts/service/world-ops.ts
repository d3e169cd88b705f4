// The operator's hands and eyes on the loaded world: an exogenous event put into
// it (with the line the page shows), and the snapshot of what holds in it.
import type { Request, Response } from '../../contract/api';
import type { SimControl } from '../../robot/sim/control';
import type { SimRobot } from '../../robot/sim/sim-robot';
import type { SceneMeta } from '../../contract/schemas';
import { locationOf } from '../../sim/world/location';
import { describePlace } from '../../sim/world/place';

export interface LoadedWorld {
  robot: SimRobot;
  control: SimControl;
  meta: SceneMeta;
}

/** Puts the event into the world; a refusal is an answer, not an error. */
export async function injectWorldEvent(cur: LoadedWorld, req: Request<'injectEvent'>): Promise<Response<'injectEvent'>> {
  const control = cur.control;
  try {
    if (req.type === 'object_moved') {
      const r = control.resolve(req.object, ['object']);
      if (!r.ok) return { ok: false, message: r.message };
      const fromHand = control.holding() === r.id;
      control.inject({ type: 'object_moved', object: r.id, to: req.to, ...(req.by ? { by: req.by } : {}) });
      return { ok: true, message: movedMessage(cur, r.id, req.to, fromHand) };
    } else if (req.type === 'person_said') {
      control.inject({ type: 'person_said', text: req.text, ...(req.person ? { person: req.person } : {}) });
    } else {
      control.inject(req);
    }
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
  const b = await cur.robot.battery();
  const message =
    req.type === 'set_battery'
      ? `battery set to ${b.percent.toFixed(0)}% (${b.level})`
      : req.type === 'estop_pressed'
        ? 'emergency stop pressed: motion stops until it is released'
        : req.type === 'estop_released'
          ? 'emergency stop released'
          : `${req.person ?? 'a person'} said: "${req.text}"`;
  return { ok: true, message };
}

/** Farther than this from the point asked, the answer says where the object went instead. */
const MOVE_TOLERANCE_M = 0.02;

/**
 * What a move did, read from the world after it settled: an object is set down on
 * whatever lies below the point asked and may roll, so "moved" alone would claim it
 * is there. Says where it rests against the point (its underside, as asked), what it
 * rests on or in, and that it left the robot's hand.
 */
function movedMessage(cur: LoadedWorld, id: string, to: readonly [number, number, number], fromHand: boolean): string {
  const box = cur.control.world.aabb(id);
  const below = to[1] - box.min.y;
  const aside = Math.hypot((box.min.x + box.max.x) / 2 - to[0], (box.min.z + box.max.z) / 2 - to[2]);
  const cm = (m: number) => `${Math.round(m * 100)} cm`;
  const off = [
    below > MOVE_TOLERANCE_M ? `${cm(below)} below` : below < -MOVE_TOLERANCE_M ? `${cm(-below)} above` : '',
    aside > MOVE_TOLERANCE_M ? `${cm(aside)} to the side of` : '',
  ].filter(Boolean);
  const place = locationOf(cur.control.world, id);
  // Still moving after the settle: where it will rest is not known, and the answer says so.
  const rest =
    place.kind === 'moving'
      ? `it is ${describePlace(place)}`
      : `${off.length ? `it came to rest ${off.join(' and ')} the point given` : 'it rests there'}, ${describePlace(place)}`;
  return `moved ${id}${fromHand ? " out of the robot's hand" : ''}: ${rest}`;
}

/** The operator's view: what holds in the world, whether the robot perceived it or not. */
export async function snapshotOf(cur: LoadedWorld, busy: boolean): Promise<Response<'getSnapshot'>> {
  const { robot, control } = cur;
  const sim = control.world;
  const last = await robot.events.lastId();
  const events = await robot.events.since(Math.max(0, last - 50));
  return {
    sceneId: cur.meta.id,
    time: control.time(),
    facts: control.facts(),
    battery: await robot.battery(),
    estop: control.estop,
    holding: control.holding() ?? null,
    at: sim.body.at ?? null,
    posture: sim.body.posture ?? null,
    busy,
    events: events.map((e) => ({ id: e.id, time: e.time, type: e.type, text: e.text })),
  };
}
