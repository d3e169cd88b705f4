// The parts the app draws for a described robot's links: each link's <visual>
// shapes (scenes/urdf/visuals.ts) in its body's frame (the link frame, the sim's
// axes: Y up), coloured by the visual's material; a link whose visual cannot be
// drawn is drawn as its collision shapes, and the scene meta says so. Sent once,
// with the scene meta; the pose stream then moves each link's body.
import type { ShapePart } from '../../contract/schemas';
import { simPose } from '../../sim/body/imported-arm';
import { urdfToSim } from '../../sim/body/kinematics';
import type { SimWorld } from '../../sim/world/sim-world';
import { type DrawnShape, drawRobot } from '../../scenes/urdf/visuals';

/** Stand-in for a link with a visual that cannot be drawn and no collision shapes (metres). */
const STAND_IN = 0.05;

/** The described link each robot body is, by body handle (none for a scene's own robot). */
export function linksOfBodies(sim: SimWorld): Map<number, string> {
  const chain = sim.bodyLinks.chain;
  const out = new Map<number, string>();
  if (!chain) return out;
  for (const [link, body] of chain.bodies) out.set(body, link);
  chain.arm.fingers.forEach((f, k) => out.set(chain.fingerBodies[k as 0 | 1], f.link));
  return out;
}

// To a hundredth of a millimetre: the meta is JSON, and a float32's seventeen digits say nothing more.
const round = (v: number): number => Math.round(v * 1e5) / 1e5;

function part(s: DrawnShape, fallback: string): ShapePart {
  const pose = simPose(s.origin);
  const g = s.geometry;
  const geometry: ShapePart['geometry'] =
    g.kind === 'box'
      ? { shape: 'box', size: [g.size[0], g.size[2], g.size[1]] }
      : g.kind === 'cylinder'
        ? { shape: 'cylinder', radius: g.radius, height: g.length }
        : g.kind === 'sphere'
          ? { shape: 'sphere', radius: g.radius }
          : triangles(g.positions);
  return {
    name: '',
    geometry,
    position: [pose.p.x, pose.p.y, pose.p.z],
    rotation: [pose.q.x, pose.q.y, pose.q.z, pose.q.w],
    // The alpha of a URDF colour is not drawn: every link is opaque.
    color: s.color?.slice(0, 7) ?? fallback,
  };
}

function triangles(corners: Float32Array): ShapePart['geometry'] {
  const positions = new Array<number>(corners.length);
  for (let i = 0; i < corners.length; i += 3) {
    const v = urdfToSim([corners[i]!, corners[i + 1]!, corners[i + 2]!]);
    positions[i] = round(v.x);
    positions[i + 1] = round(v.y);
    positions[i + 2] = round(v.z);
  }
  return { shape: 'mesh', positions, indices: positions.slice(0, corners.length / 3).map((_, i) => i) };
}

/**
 * What to draw for the robot body `link` is: its visual parts, or its collision parts
 * (`collision`, as the debug view draws them) when its visual cannot be drawn; nothing
 * for a link without a <visual>. Undefined when the robot is no described one.
 */
export function linkParts(sim: SimWorld, link: string, fallback: string, collision: () => ShapePart[]): ShapePart[] | undefined {
  const im = sim.scene.imported;
  if (!im) return undefined;
  const drawn = drawRobot(im.description, im.meshes).links.get(link);
  if (!drawn) return [];
  if (drawn.kind === 'visual') return drawn.shapes.map((s) => part(s, fallback));
  const hull = collision();
  if (hull.length) return hull;
  return [
    {
      name: '',
      geometry: { shape: 'box', size: [STAND_IN, STAND_IN, STAND_IN] },
      position: [0, 0, 0],
      rotation: [0, 0, 0, 1],
      color: fallback,
    },
  ];
}

/** Each link drawn other than its <visual> says, and why: what the scene meta tells the page. */
export function drawNotes(sim: SimWorld): string[] {
  const im = sim.scene.imported;
  if (!im) return [];
  const out: string[] = [];
  for (const [link, d] of drawRobot(im.description, im.meshes).links)
    if (d.kind === 'collision') out.push(`link "${link}": ${d.why}`);
    else if (d.note) out.push(`link "${link}": ${d.note}`);
  return out;
}
