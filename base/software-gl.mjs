// How Chromium draws WebGL on this machine: one decision for the desktop app,
// the browser tests and `bench app`, so what is measured and tested is what a
// person gets. Without a GPU, Mesa's llvmpipe (reached through ANGLE's EGL
// backend) draws the app's scenes at 1.6-2.5x SwiftShader's rate on 2 cores
// (bench app: kitchen 59 fps against 35-46, four classroom pages 33 fps each
// against 16-18); SwiftShader stays the fallback where Mesa is not installed.
// Plain JavaScript: the browser-test scripts run without a build step.
import { existsSync } from 'node:fs';

export const GL_CHOICES = ['auto', 'gpu', 'llvmpipe', 'swiftshader'];

/** Chromium switches (without the leading "--") for each way of drawing. */
const SWITCHES = {
  gpu: [],
  // Chromium blocklists llvmpipe as a "software renderer" and would fall back to SwiftShader without the second switch.
  llvmpipe: ['use-angle=gl-egl', 'ignore-gpu-blocklist', 'disable-gpu-compositing'],
  // Compositing stays on the CPU: through SwiftShader it cost 3x the GPU process's time per frame.
  swiftshader: ['use-angle=swiftshader', 'enable-unsafe-swiftshader', 'disable-gpu-compositing'],
};

/** Where distributions put Mesa's EGL and its software rasteriser. */
const LIB_DIRS = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64', '/usr/lib'];

/** Whether Mesa's EGL and llvmpipe are installed (Linux). */
export function hasMesaLlvmpipe(exists = existsSync) {
  return LIB_DIRS.some(
    (d) =>
      exists(`${d}/libEGL_mesa.so.0`) &&
      (exists(`${d}/dri/swrast_dri.so`) || exists(`${d}/dri/kms_swrast_dri.so`) || exists(`${d}/libgallium_dri.so`)),
  );
}

/**
 * The plan for this machine. `SKILLBRIDGE_GL` (auto, gpu, llvmpipe, swiftshader) overrides
 * the choice; any other value is refused with the list. `software` says the caller wants
 * software GL whatever the machine has (the benchmark and the tests). A request for
 * llvmpipe on a machine without Mesa is refused, not quietly drawn by SwiftShader.
 */
export function glPlan({ env = process.env, platform = process.platform, exists = existsSync, software = false } = {}) {
  const asked = env.SKILLBRIDGE_GL === undefined || env.SKILLBRIDGE_GL === '' ? 'auto' : env.SKILLBRIDGE_GL;
  if (!GL_CHOICES.includes(asked))
    throw new Error(`SKILLBRIDGE_GL: "${asked}" is not one of ${GL_CHOICES.join(', ')} (unset it to let the app choose)`);
  const mesa = platform === 'linux' && hasMesaLlvmpipe(exists);
  if (asked === 'llvmpipe' && !mesa)
    throw new Error("SKILLBRIDGE_GL: llvmpipe needs Mesa's EGL and software rasteriser (Debian: apt install libegl-mesa0 libgl1-mesa-dri)");
  if (asked !== 'auto') return plan(asked, `SKILLBRIDGE_GL=${asked}`);
  const noGpu = software || env.SKILLBRIDGE_SOFTWARE_GL === '1' || (platform === 'linux' && !exists('/dev/dri'));
  if (!noGpu) return plan('gpu', 'a GPU device is present');
  return mesa ? plan('llvmpipe', "no GPU: Mesa's llvmpipe") : plan('swiftshader', "no GPU and no Mesa llvmpipe: Chromium's SwiftShader");
}

function plan(backend, why) {
  // On a machine that has a GPU too, Mesa's EGL would pick the GPU's driver: this keeps it to llvmpipe.
  const env = backend === 'llvmpipe' ? { LIBGL_ALWAYS_SOFTWARE: '1' } : {};
  return { backend, why, switches: [...SWITCHES[backend]], env };
}

/** The plan's switches as command-line arguments (Playwright's `args`). */
export function chromiumArgs(p) {
  return p.switches.map((s) => `--${s}`);
}
