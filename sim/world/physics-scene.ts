// The physical scene: the Rapier world with the floor, every scene object as a
// body with its colliders (and the door of an articulated thing), and people as
// kinematic capsules. Poses and boxes are read back from the bodies. SimWorld
// adds the robot, the clock and events on top.
import type { ResolvedScene } from '../../scenes/resolve';
import type { Location } from '../../scenes/schema';
import { G, QUERY } from '../groups';
import { type Aabb, type Pose, type Vec3, aabbContainsPoint, qYaw, rotate, v3 } from '../math';
import type { Rapier, RAPIER } from '../rapier';
import { buildEntity, buildFloor, doorPose, placementPoses } from './build';
import { type Entity, aabbToWorld, interiorAt, surfacesAt } from './entity';
import { buildPerson } from './people';
import type { PersonState } from './types';

/** What a person setting an object down meets: what a placed object would, the floor, and the robot's body and what it holds. */
const SET_DOWN = QUERY.placement | ((G.FLOOR | G.ARM | G.BASE | G.HELD) & 0xffff);
/** Steps and limit (metres) of the search for a free height above a spot inside something. */
const LIFT_STEP = 0.02;
const MAX_LIFT = 2.5;

export class PhysicsScene {
  world: RAPIER.World;
  readonly entities = new Map<string, Entity>();
  readonly people = new Map<string, PersonState>();
  readonly locations: ReadonlyMap<string, Location>;
  /** Bodies of every entity collider, for mapping query hits back to ids. */
  readonly colliderOwner = new Map<number, string>();
  /** The floor's rigid body. */
  readonly floor: number;
  /** Bumped whenever the world changes (a step, a moved object, a restore): keys for caches. */
  version = 0;
  /** Poses and sizes are cached per step; perception asks many times per call. */
  private aabbCache = new Map<string, Aabb>();
  private aabbCacheVersion = -1;

  protected constructor(
    readonly R: Rapier,
    readonly scene: ResolvedScene,
    dt: number,
  ) {
    this.world = new R.World({ x: 0, y: -9.81, z: 0 });
    this.world.timestep = dt;
    this.locations = new Map(scene.scene.locations.map((l) => [l.id, l]));
    this.floor = buildFloor(R, this.world, scene.scene.floor.size);
    const poses = placementPoses(scene);
    for (const spec of scene.objects) {
      const e = buildEntity(R, this.world, spec, poses.get(spec.id)!);
      this.entities.set(e.id, e);
      for (const c of e.colliders) this.colliderOwner.set(c, e.id);
      if (e.door) {
        for (const c of e.door.colliders) this.colliderOwner.set(c, e.id);
        if (e.states.open) this.setDoorValue(e, e.door.openValue, true);
      }
    }
    for (const p of scene.scene.people) {
      const { state, collider } = buildPerson(R, this.world, p);
      this.colliderOwner.set(collider, p.id);
      this.people.set(p.id, state);
    }
  }

  entity(id: string): Entity {
    const e = this.entities.get(id);
    if (!e) throw new Error(`no entity "${id}"`);
    return e;
  }

  bodyPose(handle: number): Pose {
    const b = this.world.getRigidBody(handle);
    const t = b.translation();
    const r = b.rotation();
    return { p: { x: t.x, y: t.y, z: t.z }, q: { x: r.x, y: r.y, z: r.z, w: r.w } };
  }

  pose(id: string): Pose {
    return this.bodyPose(this.entity(id).body);
  }

  /** World AABB of an entity's main body (doors excluded), cached for this step. */
  aabb(id: string): Aabb {
    if (this.aabbCacheVersion !== this.version) {
      this.aabbCache = new Map();
      this.aabbCacheVersion = this.version;
    }
    let box = this.aabbCache.get(id);
    if (!box) {
      const e = this.entity(id);
      box = aabbToWorld(e.localAabb, this.pose(id));
      this.aabbCache.set(id, box);
    }
    return box;
  }

  doorAabb(id: string): Aabb | undefined {
    const e = this.entity(id);
    return e.door ? aabbToWorld(e.door.localAabb, this.bodyPose(e.door.body)) : undefined;
  }

  /** Receptacle interior in world coordinates; none while it is tipped past its side. */
  interior(id: string): Aabb | undefined {
    const pose = this.pose(id);
    // A container tipped past its side holds nothing: what was in it has fallen
    // out or is only resting against a wall.
    if (rotate(pose.q, v3(0, 1, 0)).y < 0.5) return undefined;
    return interiorAt(this.entity(id), pose);
  }

  /** Support surfaces (table tops) in world coordinates. */
  surfaces(id: string): Aabb[] {
    return surfacesAt(this.entity(id), this.pose(id));
  }

  /**
   * Brings scene queries (rays, shape casts) up to date after bodies were moved
   * by hand, without advancing time: a zero-length step refreshes the broad
   * phase, so a perceive right after an object was carried off sees the new spot.
   */
  refreshQueries(): void {
    const dt = this.world.timestep;
    this.world.timestep = 0;
    this.world.step();
    this.world.timestep = dt;
    this.version++;
  }

  /**
   * Sets a movable object down as a person would: upright (its yaw kept), at
   * the given x, z, lowered from the given height until its box meets the first
   * thing below (furniture, another object, the robot's hand or arm, what the
   * hand holds, the floor). Asked for a spot inside something (an appliance's
   * body, the robot's arm), it is lowered from the first free height above it,
   * so it lands on top of that thing; a spot inside a closed appliance or
   * cupboard puts it on top of it too (nobody reaches through a shut door). It rests there at once, neither floating
   * nor inside anything, and queries see it there; where no free height exists
   * within 2.5 m the move is refused with the reason.
   */
  setDown(e: Entity, to: Vec3): void {
    const b = this.world.getRigidBody(e.body);
    const r = b.rotation();
    const fwd = rotate(r, v3(1, 0, 0));
    const q = qYaw(Math.atan2(-fwd.z, fwd.x));
    const local = e.localAabb;
    const half = v3((local.max.x - local.min.x) / 2, (local.max.y - local.min.y) / 2, (local.max.z - local.min.z) / 2);
    const offset = rotate(q, v3((local.max.x + local.min.x) / 2, (local.max.y + local.min.y) / 2, (local.max.z + local.min.z) / 2));
    const mine = new Set(e.colliders);
    const shape = new this.R.Cuboid(half.x, half.y, half.z);
    const cast = (from: Vec3) =>
      this.world.castShape(
        from,
        q,
        v3(0, -1, 0),
        shape,
        0,
        from.y + 1,
        true,
        undefined,
        SET_DOWN,
        undefined,
        undefined,
        (c) => !mine.has(c.handle),
      );
    /** Lowers the box from `base` (lifting it first out of anything it starts in): where its centre comes to rest. */
    const land = (base: Vec3): Vec3 => {
      let start = base;
      let hit = cast(start);
      // Asked for a spot inside something: the first free height above it, in 2 cm steps.
      for (let lift = LIFT_STEP; hit && hit.time_of_impact < 1e-6; lift += LIFT_STEP) {
        if (lift > MAX_LIFT + 1e-9) {
          const at = [to.x, to.y, to.z].map((x) => x.toFixed(2)).join(', ');
          throw new Error(`cannot set "${e.id}" down at (${at}): no free height within ${MAX_LIFT} m above that spot`);
        }
        start = v3(base.x, base.y + lift, base.z);
        hit = cast(start);
      }
      const drop = hit ? hit.time_of_impact : start.y - half.y;
      return v3(start.x, start.y - drop + 0.002, start.z);
    };
    const base = v3(to.x + offset.x, Math.max(to.y, 0) + half.y + offset.y + 0.01, to.z + offset.z);
    let centre = land(base);
    // Nobody puts a thing through a closed door: asked for a spot inside a closed
    // appliance or cupboard, it is set on top of it instead.
    const shut = this.closedAround(e.id, centre);
    if (shut) centre = land(v3(base.x, Math.max(base.y, this.aabb(shut).max.y + half.y + 0.01), base.z));
    b.setTranslation(v3(centre.x - offset.x, centre.y - offset.y, centre.z - offset.z), true);
    b.setRotation(q, true);
    b.setLinvel(v3(), true);
    b.setAngvel(v3(), true);
    this.refreshQueries();
  }

  /** A closed storage (its door or drawer shut) whose inside holds this point, other than `self`. */
  private closedAround(self: string, p: Vec3): string | undefined {
    for (const x of this.entities.values()) {
      if (x.id === self || !x.door || x.states.open) continue;
      const inside = this.interior(x.id);
      if (inside && aabbContainsPoint(inside, p, 0.01)) return x.id;
    }
    return undefined;
  }

  /** Moves a door or drawer to an opening value: next-step target, or at once. */
  setDoorValue(e: Entity, value: number, teleport = false): void {
    if (!e.door) return;
    e.door.value = value;
    const pose = doorPose(this.pose(e.id), e.door, value);
    const b = this.world.getRigidBody(e.door.body);
    if (teleport) {
      b.setTranslation(pose.p, true);
      b.setRotation(pose.q, true);
    } else {
      b.setNextKinematicTranslation(pose.p);
      b.setNextKinematicRotation(pose.q);
    }
  }
}
