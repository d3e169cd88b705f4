import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GL_CHOICES, chromiumArgs, glPlan, hasMesaLlvmpipe } from './software-gl.mjs';

const MESA = ['/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0', '/usr/lib/x86_64-linux-gnu/dri/swrast_dri.so'];
const machine =
  (...present: string[]) =>
  (p: string): boolean =>
    present.includes(p);

describe('how Chromium draws WebGL (software-gl)', () => {
  it('without a GPU: Mesa llvmpipe when installed, with the switch that lifts its blocklisting and Mesa kept to software', () => {
    const p = glPlan({ env: {}, platform: 'linux', exists: machine(...MESA) });
    expect(p.backend).toBe('llvmpipe');
    expect(chromiumArgs(p)).toEqual(['--use-angle=gl-egl', '--ignore-gpu-blocklist', '--disable-gpu-compositing']);
    expect(p.env).toEqual({ LIBGL_ALWAYS_SOFTWARE: '1' });
  });

  it('without a GPU and without Mesa: SwiftShader, which Chromium only uses when asked', () => {
    const p = glPlan({ env: {}, platform: 'linux', exists: machine() });
    expect(p.backend).toBe('swiftshader');
    expect(p.switches).toContain('enable-unsafe-swiftshader');
    expect(p.env).toEqual({});
  });

  it('Mesa found only as its EGL, or only as its rasteriser, is not llvmpipe', () => {
    expect(hasMesaLlvmpipe(machine(MESA[0]!))).toBe(false);
    expect(hasMesaLlvmpipe(machine(MESA[1]!))).toBe(false);
    expect(hasMesaLlvmpipe(machine('/usr/lib64/libEGL_mesa.so.0', '/usr/lib64/libgallium_dri.so'))).toBe(true);
  });

  it('with a GPU device: no switches, unless software GL is asked for (the benchmark, the tests)', () => {
    const gpu = machine('/dev/dri', ...MESA);
    expect(glPlan({ env: {}, platform: 'linux', exists: gpu })).toMatchObject({ backend: 'gpu', switches: [] });
    expect(glPlan({ env: {}, platform: 'linux', exists: gpu, software: true }).backend).toBe('llvmpipe');
    expect(glPlan({ env: { SKILLBRIDGE_SOFTWARE_GL: '1' }, platform: 'linux', exists: gpu }).backend).toBe('llvmpipe');
    // No Mesa off Linux: software GL there is SwiftShader.
    expect(glPlan({ env: {}, platform: 'darwin', exists: machine() }).backend).toBe('gpu');
    expect(glPlan({ env: {}, platform: 'darwin', exists: machine(...MESA), software: true }).backend).toBe('swiftshader');
  });

  it('SKILLBRIDGE_GL chooses; a value it does not know, or llvmpipe without Mesa, is refused naming the fix', () => {
    for (const backend of ['gpu', 'swiftshader', 'llvmpipe'] as const)
      expect(glPlan({ env: { SKILLBRIDGE_GL: backend }, platform: 'linux', exists: machine(...MESA) }).backend).toBe(backend);
    expect(glPlan({ env: { SKILLBRIDGE_GL: 'auto' }, platform: 'linux', exists: machine(...MESA) }).backend).toBe('llvmpipe');
    expect(() => glPlan({ env: { SKILLBRIDGE_GL: 'vulkan' }, platform: 'linux', exists: machine(...MESA) })).toThrow(
      `SKILLBRIDGE_GL: "vulkan" is not one of ${GL_CHOICES.join(', ')}`,
    );
    expect(() => glPlan({ env: { SKILLBRIDGE_GL: 'llvmpipe' }, platform: 'linux', exists: machine() })).toThrow(
      /apt install libegl-mesa0 libgl1-mesa-dri/,
    );
  });

  it('on this machine the plan follows what is installed', () => {
    const p = glPlan({ env: {}, software: true });
    expect(p.backend).toBe(process.platform === 'linux' && hasMesaLlvmpipe(existsSync) ? 'llvmpipe' : 'swiftshader');
  });
});
