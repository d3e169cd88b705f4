// What the robot's camera can see, read by the audit itself: the camera's pose
// from the robot's configuration and its links in the physics world, and one
// ray cast to the thing. Only the certain cases decide a claim: a thing whose
// centre is well inside the view and the first thing the ray meets is seen; a
// thing wholly outside the view (by a margin) is not. Everything between is
// consistent with either answer. People are recognised as the scene defines
// it: on record, their face toward the camera, within range.
import { QUERY } from '../../sim/groups';
import type { SimWorld } from '../../sim/world/sim-world';
import { type Box, type Q, type V, conj, qmul, rot, vec } from './truth';

export type Sight = 'seen' | 'hidden' | 'unsure';

interface Camera {
  p: V;
  q: Q;
  halfH: number;
  halfV: number;
  range: number;
}

const rad = (d: number): number => (d * Math.PI) / 180;
const qZ = (a: number): Q => ({ x: 0, y: 0, z: Math.sin(a / 2), w: Math.cos(a / 2) });
/** Angles (radians) and distance (metres) by which a point must clear the view's edges to count as certainly in or out. */
const ANGLE_MARGIN = rad(4);
const RANGE_MARGIN = 0.15;
/** The vertical field of view is this share of the horizontal one. */
const VERTICAL_SHARE = 0.75;

function camera(w: SimWorld): Camera {
  const cfg = w.scene.robot.camera;
  const base = w.world.getRigidBody(w.bodyLinks.base);
  const bq = base.rotation();
  const bt = base.translation();
  let p: V;
  let q: Q;
  const hand = cfg.mount === 'wrist' && w.bodyLinks.arm ? w.world.getRigidBody(w.bodyLinks.arm.hand) : undefined;
  if (hand) {
    // Looks along the hand (its +Y), tilted by the configured pitch.
    const t = hand.translation();
    p = vec(t.x, t.y, t.z);
    q = qmul(hand.rotation(), qZ(Math.PI / 2 + rad(cfg.pitch)));
  } else {
    const m = rot(bq, vec(...cfg.position));
    p = vec(bt.x + m.x, bt.y + m.y, bt.z + m.z);
    q = qmul(bq, qZ(rad(cfg.pitch)));
  }
  return { p, q, halfH: rad(cfg.fov) / 2, halfV: (rad(cfg.fov) * VERTICAL_SHARE) / 2, range: cfg.range };
}

/** How far inside the view a point is: negative when outside (radians or metres, the smallest margin). */
function inside(cam: Camera, pt: V): number {
  const l = rot(conj(cam.q), vec(pt.x - cam.p.x, pt.y - cam.p.y, pt.z - cam.p.z));
  const d = Math.hypot(l.x, l.y, l.z);
  if (l.x <= 0) return -1;
  const h = cam.halfH - Math.atan2(Math.abs(l.z), l.x);
  const v = cam.halfV - Math.atan2(Math.abs(l.y), l.x);
  // Metres of range against radians of angle: each compared with its own margin below.
  return Math.min(h / ANGLE_MARGIN, v / ANGLE_MARGIN, (cam.range - d) / RANGE_MARGIN);
}

function samples(b: Box): V[] {
  const c = vec((b.min.x + b.max.x) / 2, (b.min.y + b.max.y) / 2, (b.min.z + b.max.z) / 2);
  const h = vec((b.max.x - b.min.x) / 4, (b.max.y - b.min.y) / 4, (b.max.z - b.min.z) / 4);
  const out = [c];
  for (const sx of [-1, 1])
    for (const sy of [-1, 1]) for (const sz of [-1, 1]) out.push(vec(c.x + sx * h.x, c.y + sy * h.y, c.z + sz * h.z));
  return out;
}

/** The owner of the first collider a ray from the camera to a point meets (robot links and the held object let sight through). */
function firstHit(w: SimWorld, cam: Camera, pt: V, target: string): { owner: string | undefined; toi: number } | undefined {
  const d = vec(pt.x - cam.p.x, pt.y - cam.p.y, pt.z - cam.p.z);
  const len = Math.hypot(d.x, d.y, d.z);
  if (len < 1e-6) return undefined;
  const skip = new Set<number>(w.bodyLinks.colliders);
  const held = w.heldId();
  if (held && held !== target) for (const h of w.entity(held).colliders) skip.add(h);
  const ray = new w.R.Ray(cam.p, vec(d.x / len, d.y / len, d.z / len));
  const hit = w.world.castRay(ray, len + 0.5, true, undefined, QUERY.sight, undefined, undefined, (c) => !skip.has(c.handle));
  if (!hit) return undefined;
  const person = [...w.people.values()].find((p) => w.world.getCollider(hit.collider.handle).parent()?.handle === p.body);
  return { owner: person ? person.spec.id : w.colliderOwner.get(hit.collider.handle), toi: hit.timeOfImpact };
}

/** Can the camera see this box (an entity's or a person's)? */
function sightOfBox(w: SimWorld, id: string, box: Box): Sight {
  const cam = camera(w);
  const pts = samples(box);
  const margins = pts.map((p) => inside(cam, p));
  if (margins.every((m) => m < -1)) return 'hidden';
  if (margins[0]! > 1) {
    const hit = firstHit(w, cam, pts[0]!, id);
    if (hit?.owner === id) return 'seen';
  }
  return 'unsure';
}

/** Can the camera see the thing now? */
export function sightOf(w: SimWorld, id: string, box: Box | undefined): Sight {
  if (w.people.has(id)) return sightOfBox(w, id, personBox(w, id));
  if (!w.entities.has(id) || !box) return 'unsure';
  return sightOfBox(w, id, box);
}

/** A person's box: the capsule around where they stand. */
export function personBox(w: SimWorld, id: string): Box {
  const p = w.people.get(id)!;
  const h = p.spec.seated ? p.spec.height * 0.7 : p.spec.height;
  return {
    min: vec(p.position.x - 0.22, p.position.y, p.position.z - 0.22),
    max: vec(p.position.x + 0.22, p.position.y + h, p.position.z + 0.22),
  };
}

/** The scene's recognition rule: on record, within this range of the camera, the face within this angle of it. */
const RECOGNITION_RANGE = 4;
const FACE_ANGLE = rad(70);

/** Can the robot recognise this person now? 'unsure' near the edges of range and angle. */
export function recognisable(w: SimWorld, id: string, inView: boolean): 'yes' | 'no' | 'unsure' {
  const p = w.people.get(id);
  if (!p) return 'no';
  if (!p.spec.known) return 'no';
  const cam = camera(w);
  const h = p.spec.seated ? p.spec.height * 0.7 : p.spec.height;
  const eye = vec(p.position.x, p.position.y + h - 0.1, p.position.z);
  const d = Math.hypot(eye.x - cam.p.x, eye.y - cam.p.y, eye.z - cam.p.z);
  // The face points at its gaze target (the robot: its camera), or along the body's yaw.
  let face = vec(Math.cos(p.yaw), 0, -Math.sin(p.yaw));
  const target = p.gaze === 'robot' ? cam.p : p.gaze === 'away' ? undefined : p.gaze;
  if (target) {
    const f = vec(target.x - eye.x, 0, target.z - eye.z);
    const n = Math.hypot(f.x, f.z);
    if (n > 1e-9) face = vec(f.x / n, 0, f.z / n);
  }
  const toCam = vec(cam.p.x - eye.x, 0, cam.p.z - eye.z);
  const n = Math.hypot(toCam.x, toCam.z);
  const angle = n > 1e-9 ? Math.acos(Math.max(-1, Math.min(1, (face.x * toCam.x + face.z * toCam.z) / n))) : 0;
  if (d > RECOGNITION_RANGE + 0.1 || angle > FACE_ANGLE + rad(3)) return 'no';
  if (inView && d < RECOGNITION_RANGE - 0.1 && angle < FACE_ANGLE - rad(3)) return 'yes';
  return 'unsure';
}
