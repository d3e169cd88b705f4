// Static bodies drawn in batches: every mesh of the bodies that never move
// (counters, walls, fences, location markers) is merged with the others of the
// same material into one mesh; bodies share one vertex-coloured material, so a
// kitchen's ~50 still bodies cost one draw call (software GL pays per draw
// call, not per pixel), the location markers another. The original meshes stay as
// invisible stand-ins: hover, labels, screen boxes and the robot camera's "what
// is in front" check still find each body, and a highlighted one is shown
// again (drawn over its batch) so its outline appears.
import type { AbstractMesh } from '@babylonjs/core/Meshes/abstractMesh';
import { Mesh } from '@babylonjs/core/Meshes/mesh';
import type { Material } from '@babylonjs/core/Materials/material';

export interface Batches {
  /** Merged meshes, one per material (drawn; never picked). */
  batches: Set<AbstractMesh>;
  /** The still meshes they replace in the image (not drawn; picked, highlighted, measured). */
  proxies: Set<AbstractMesh>;
}

/** Merges the given still meshes (world matrices frozen) per material; meshes alone with their material stay as they are. */
export function batchStatic(meshes: readonly Mesh[], out: Batches): Mesh[] {
  const byMaterial = new Map<Material, Mesh[]>();
  for (const m of meshes) {
    if (!m.material || !m.isEnabled() || !m.getTotalVertices()) continue;
    byMaterial.set(m.material, [...(byMaterial.get(m.material) ?? []), m]);
  }
  const made: Mesh[] = [];
  for (const [material, group] of byMaterial) {
    if (group.length < 2) continue;
    // Copies placed where the originals are (same parent), merged in world space.
    const copies = group.map((m) => {
      const c = m.clone(`${m.name}:copy`, m.parent, true, false);
      c.computeWorldMatrix(true);
      return c;
    });
    const merged = Mesh.MergeMeshes(copies, true, true);
    if (!merged) continue;
    merged.name = `batch:${material.name}`;
    merged.material = material;
    merged.isPickable = false;
    merged.receiveShadows = group.some((m) => m.receiveShadows);
    merged.computeWorldMatrix(true);
    merged.freezeWorldMatrix();
    merged.doNotSyncBoundingInfo = true;
    out.batches.add(merged);
    made.push(merged);
    for (const m of group) {
      m.isVisible = false;
      out.proxies.add(m);
    }
  }
  return made;
}
