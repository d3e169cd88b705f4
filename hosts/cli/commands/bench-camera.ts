// skillbridge bench camera: ms per 640×480 camera picture per scene (see hosts/bench/camera-bench.ts).
import { CAMERA_SCENES } from '../../bench/camera-bench';
import { type Parsed, UsageError, stringFlag } from '../args';
import { type Output, json } from '../output';
import { isBuiltinScene } from '../../../scenes/registry';

export async function cameraBenchCommand(p: Parsed, o: Output): Promise<number> {
  const scene = stringFlag(p.flags, 'scene');
  if (scene !== undefined && !isBuiltinScene(scene))
    throw new UsageError(`--scene: "${scene}" is not a built-in scene (see "skillbridge scenes")`);
  const asJson = Boolean(p.flags['json']);
  const { benchCamera } = await import('../../bench/camera-bench');
  const r = await benchCamera({ scenes: scene ? [scene] : CAMERA_SCENES });
  if (asJson) {
    json(o, r);
    return 0;
  }
  o.out(`Camera benchmark (${r.node}): the headless camera picture at 640×480, rasterised in this process (no GPU)`);
  for (const s of r.scenes)
    o.out(
      `  ${s.id.padEnd(18)} render ${s.renderCpuMs} ms CPU per frame (wall p50 ${s.renderWallMs.p50} / p90 ${s.renderWallMs.p90} ms over ${s.frames}); PNG ${s.pngMs} ms, ${Math.round(s.pngBytes / 1024)} KB; ray-cast reference ${s.raysMsAt160} ms at 160×120`,
    );
  o.out(
    `  goal ≤ ${r.goalMs} ms per frame (CPU, median over scenes): ${r.met ? 'met' : 'NOT met'} (load average ${r.loadAvg.start} at the start, ${r.loadAvg.end} at the end)`,
  );
  return 0;
}
