// The operator's hands and eyes on the loaded world: an exogenous event put into
// it (with the line the page shows), and the snapshot of what holds in it.
import type { Request, Response } from '../../contract/api';
import type { SimControl } from '../../robot/sim/control';
import type { SimRobot } from '../../robot/sim/sim-robot';
import type { SceneMeta } from '../../contract/schemas';

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
      control.inject({ type: 'object_moved', object: r.id, to: req.to, ...(req.by ? { by: req.by } : {}) });
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
          : req.type === 'person_said'
            ? `${req.person ?? 'a person'} said: "${req.text}"`
            : `moved ${req.object}`;
  return { ok: true, message };
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
