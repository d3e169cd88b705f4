// A group's scene from above, drawn on a small 2D canvas from the footprints the
// host lists (GroupGlance): a whole class at a glance costs one cheap 2D draw per
// group and refresh, not a WebGL context per group.
import { useEffect, useRef } from 'react';
import type { GroupGlance } from '../../../contract/schemas';

export const THUMB_W = 176;
export const THUMB_H = 116;

type Shape = GroupGlance['shapes'][number];

/** The part of the floor worth showing: everything but the largest objects (a field's fences), with a margin. */
function bounds(g: GroupGlance): { x0: number; z0: number; x1: number; z1: number } {
  const fw = g.floor[0] / 2;
  const fd = g.floor[1] / 2;
  let x0 = Infinity;
  let z0 = Infinity;
  let x1 = -Infinity;
  let z1 = -Infinity;
  for (const s of g.shapes) {
    if (s.k === 'object' && Math.max(s.w, s.d) > 4) continue;
    // The turned footprint's extent along x and z.
    const c = Math.abs(Math.cos(s.yaw));
    const n = Math.abs(Math.sin(s.yaw));
    const rx = (s.w * c + s.d * n) / 2;
    const rz = (s.w * n + s.d * c) / 2;
    x0 = Math.min(x0, s.x - rx);
    x1 = Math.max(x1, s.x + rx);
    z0 = Math.min(z0, s.z - rz);
    z1 = Math.max(z1, s.z + rz);
  }
  if (!Number.isFinite(x0)) return { x0: -fw, z0: -fd, x1: fw, z1: fd };
  const m = Math.max(0.1, 0.06 * Math.max(x1 - x0, z1 - z0));
  return { x0: Math.max(-fw, x0 - m), z0: Math.max(-fd, z0 - m), x1: Math.min(fw, x1 + m), z1: Math.min(fd, z1 + m) };
}

/** Draws the glance on a canvas of `w`×`h` CSS pixels (x to the right, z down, as seen from above). */
export function drawGlance(ctx: CanvasRenderingContext2D, g: GroupGlance, w: number, h: number): void {
  const b = bounds(g);
  const scale = Math.min(w / Math.max(0.1, b.x1 - b.x0), h / Math.max(0.1, b.z1 - b.z0));
  const ox = (w - (b.x1 - b.x0) * scale) / 2 - b.x0 * scale;
  const oz = (h - (b.z1 - b.z0) * scale) / 2 - b.z0 * scale;
  ctx.fillStyle = '#20242b';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = g.floorColor;
  ctx.fillRect(ox - (g.floor[0] / 2) * scale, oz - (g.floor[1] / 2) * scale, g.floor[0] * scale, g.floor[1] * scale);
  const draw = (s: Shape) => {
    ctx.save();
    ctx.translate(ox + s.x * scale, oz + s.z * scale);
    // A turn about +Y seen from above (z down) turns the other way on the canvas.
    ctx.rotate(-s.yaw);
    ctx.fillStyle = s.color;
    const pw = Math.max(2, s.w * scale);
    const pd = Math.max(2, s.d * scale);
    if (s.k === 'person') {
      ctx.beginPath();
      ctx.arc(0, 0, Math.max(3, pw / 2), 0, Math.PI * 2);
      ctx.fill();
    } else {
      ctx.fillRect(-pw / 2, -pd / 2, pw, pd);
      ctx.strokeStyle = 'rgba(0,0,0,0.45)';
      ctx.lineWidth = 1;
      ctx.strokeRect(-pw / 2, -pd / 2, pw, pd);
    }
    ctx.restore();
  };
  for (const s of g.shapes) if (s.k === 'object') draw(s);
  for (const s of g.shapes) if (s.k === 'person') draw(s);
  const robot = g.shapes.filter((s) => s.k === 'robot');
  for (const s of robot) draw(s);
  // The robot is what a teacher looks for: a ring keeps it visible however small the scene makes it.
  const base = robot[0];
  if (base) {
    ctx.strokeStyle = '#ffb020';
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(ox + base.x * scale, oz + base.z * scale, Math.max(7, (Math.hypot(base.w, base.d) / 2) * scale + 3), 0, Math.PI * 2);
    ctx.stroke();
  }
}

export function GroupThumbnail({ glance, name }: { glance: GroupGlance | null | undefined; name: string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const c = ref.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    if (c.width !== THUMB_W * dpr) {
      c.width = THUMB_W * dpr;
      c.height = THUMB_H * dpr;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    if (glance) drawGlance(ctx, glance, THUMB_W, THUMB_H);
    else {
      ctx.fillStyle = '#20242b';
      ctx.fillRect(0, 0, THUMB_W, THUMB_H);
    }
  }, [glance]);
  return (
    <div className="class-thumb">
      <canvas
        ref={ref}
        style={{ width: THUMB_W, height: THUMB_H }}
        role="img"
        aria-label={`${name}'s scene from above`}
        data-testid="class-thumb"
        data-sim-time={glance?.simTime ?? ''}
      />
      {!glance && <span className="muted small">no scene yet</span>}
    </div>
  );
}
