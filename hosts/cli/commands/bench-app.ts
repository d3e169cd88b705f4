// skillbridge bench app: web mode in Chromium (see hosts/bench/app-bench.ts).
import { loadavg } from 'node:os';
import { benchApp } from '../../bench/app-bench';
import { FIRST_FRAME_TARGET_MS, appTargets, fpsTarget } from '../../bench/app-targets';
import { VIEWPORT, benchGl } from '../../bench/app-bench';
import { type ClassroomBench, benchClassroom } from '../../bench/classroom-bench';
import { isBuiltinScene } from '../../../scenes/registry';
import { type Parsed, UsageError, stringFlag } from '../args';
import { type Output, json } from '../output';

export async function appBenchCommand(p: Parsed, o: Output): Promise<number> {
  const scene = stringFlag(p.flags, 'scene');
  if (scene && !isBuiltinScene(scene)) throw new UsageError(`--scene: "${scene}" is not a built-in scene (see "skillbridge scenes")`);
  const asJson = Boolean(p.flags['json']);
  let r;
  let gl;
  try {
    gl = benchGl();
    r = await benchApp({
      gl,
      ...(scene ? { scenes: [scene] } : {}),
      quick: Boolean(p.flags['quick']),
      unsettled: Boolean(p.flags['unsettled']),
      onProgress: asJson ? undefined : (l) => o.err(l),
    });
  } catch (e) {
    if (/Chromium not found|^SKILLBRIDGE_GL/.test((e as Error).message)) throw new UsageError((e as Error).message);
    throw e;
  }
  // The whole run (every scene) ends with the classroom: a teacher and three groups on this machine.
  let classroom: ClassroomBench | null = null;
  if (!scene)
    classroom = await benchClassroom({
      executablePath: r.browserPath,
      glArgs: gl.args,
      glEnv: gl.env,
      viewport: VIEWPORT,
      seconds: p.flags['quick'] ? 3 : 6,
      ...(asJson ? {} : { say: (l: string) => o.err(l) }),
    });
  const targets = appTargets(r, classroom);
  // A shared machine's load skews every figure: it is printed with them.
  const load = loadavg().map((x) => Math.round(x * 10) / 10);
  if (asJson) {
    // Each figure beside its goal, and whether it met it (the same in `targets`, as the text output lists them).
    json(o, {
      firstFrameMs: r.firstFrameMs,
      firstFrame: {
        ms: r.firstFrameMs,
        what: 'from opening the page to the first frame of the scene drawn (host started with the browser)',
        target: `≤ ${FIRST_FRAME_TARGET_MS} ms`,
        met: r.firstFrameMs <= FIRST_FRAME_TARGET_MS,
        parts: r.firstFrameParts,
        coldStartMs: r.coldStartMs,
        // Beside the wall-clock parts: CPU time, which the machine's other load skews far less.
        cpuMs: r.firstFrameCpuMs,
      },
      targets,
      loadAverage: load,
      scenes: r.scenes.map((s) => ({
        id: s.id,
        fps: s.fps,
        target: `≥ ${fpsTarget(s.id)} fps`,
        met: s.fps >= fpsTarget(s.id),
        poseLatencyMs: s.poseLatencyMs,
        drawCalls: s.drawCalls,
        activeMeshes: s.activeMeshes,
        activeIndices: s.activeIndices,
        cpuMsPerFrame: s.cpuMsPerFrame,
        resolutionPercent: s.resolutionPercent,
      })),
      rendererMB: r.rendererMB,
      classroom,
      details: r,
    });
    return 0;
  }
  o.out(`App benchmark: web mode in Chromium ${r.chromium}, ${r.viewport.join('x')}, ${r.gl}; software GL: ${r.glBackend}`);
  const fp = r.firstFrameParts;
  o.out(
    `First frame: ${r.firstFrameMs} ms from opening the page (document ${fp.documentMs}, scripts ${fp.scriptsMs}, connect ${fp.connectMs}, scene metadata ${fp.sceneMetaMs}, build ${fp.sceneBuildMs}, draw ${fp.drawMs})`,
  );
  if (r.firstFrameCpuMs)
    o.out(
      `  CPU to the first frame: ${r.firstFrameCpuMs.renderer} ms the page, ${r.firstFrameCpuMs.gpu} ms the GPU process (and ${r.firstFrameCpuMs.browser} ms the browser's own processes at the same time)`,
    );
  o.out(
    `Cold start: ${r.coldStartMs} ms (host ${fp.hostMs} ms and Chromium's launch ${fp.browserLaunchMs} ms at the same time, ${fp.browserSettleMs ?? 0} ms for the browser's own start-up work to end, then the page)`,
  );
  const w = Math.max(5, ...r.scenes.map((s) => s.id.length));
  o.out(
    `${'scene'.padEnd(w)}  fps (view turning)  pose latency median / p95 (ms)  draw calls / meshes / indices per frame  CPU ms per frame (page / GPU process)`,
  );
  for (const s of r.scenes)
    o.out(
      `${s.id.padEnd(w)}  ${`${s.fps}${s.viewTurned ? '' : ' (not turned)'}`.padEnd(18)}  ${`${s.poseLatencyMs ?? 'n/a'} / ${s.poseLatencyP95Ms ?? 'n/a'}`.padEnd(32)}  ${`${s.drawCalls ?? 'n/a'} / ${s.activeMeshes ?? 'n/a'} / ${s.activeIndices ?? 'n/a'}`.padEnd(39)}  ${s.cpuMsPerFrame ? `${s.cpuMsPerFrame.renderer} / ${s.cpuMsPerFrame.gpu}` : 'n/a'}`,
    );
  o.out(
    `Renderer memory: ${r.rendererMB} MB JS heap${r.rendererRssMB !== null ? `, ${r.rendererRssMB} MB resident (renderer processes)` : ''}`,
  );
  if (classroom)
    o.out(
      `Classroom (teacher and three groups, ${classroom.seconds} s, every view turned or panned at once): ${classroom.pages.map((c) => `${c.who} ${c.fps} fps at ${c.resolutionPercent ?? 'n/a'} %${c.viewTurned ? '' : ' (not turned)'}`).join(', ')}; frames drawn a second while nobody touches a view: ${classroom.pages.map((c) => `${c.who} ${c.stillFps}`).join(', ')}${classroom.cpu ? `; CPU per frame drawn ${classroom.cpu.rendererMsPerFrame} ms the pages + ${classroom.cpu.gpuMsPerFrame} ms the GPU process, the host using ${classroom.cpu.hostCores} cores` : ''}`,
    );
  o.out(`Targets (load average ${load.join(', ')} on ${r.cpus} CPUs):`);
  for (const t of targets) o.out(`  ${t.met ? '✓' : '✗'} ${t.what}: ${t.measured} (target ${t.target})`);
  return 0;
}
