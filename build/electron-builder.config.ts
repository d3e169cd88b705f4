// electron-builder configuration (function form, type-checked). `npm run dist`
// builds out/ with electron-vite, then packages it: Linux AppImage and deb, macOS
// dmg, Windows NSIS. Fuses turn off what the app never needs (running as plain
// Node, NODE_OPTIONS, the inspector flags, loading code outside the asar).
// It downloads Electron, so it cannot run on a machine without internet access.
import type { Configuration } from 'electron-builder';

export default function config(): Configuration {
  return {
    appId: 'dev.skillbridge.app',
    productName: 'Skillbridge',
    copyright: 'MIT licensed',
    directories: { output: 'dist', buildResources: 'build' },
    // The bundles carry the app's code; production dependencies (Rapier, zod, ws…) come from node_modules.
    // tsx, esbuild, out/web (the worker bundle web mode builds) and out/cli (the command line's bundle) only serve the CLI and web mode.
    files: [
      'out/**/*',
      '!out/web/**',
      '!out/cli/**',
      'package.json',
      '!**/*.map',
      '!node_modules/{tsx,esbuild,@esbuild}/**',
      // The local model runtime: only the target platform's prebuilt llama.cpp (each is tens of MB).
      '!node_modules/@node-llama-cpp/*/bins/**/*',
      'node_modules/@node-llama-cpp/${os}-${arch}*/bins/**/*',
      '!node_modules/node-llama-cpp/llama/localBuilds/**/*',
      'node_modules/node-llama-cpp/llama/localBuilds/${os}-${arch}*/**/*',
    ],
    // package.json has no "main" (the CLI is the package's face); the app's entry is the built main.
    extraMetadata: { main: 'out/main/index.js' },
    asar: true,
    // Native binaries load from real files, not from inside the asar.
    asarUnpack: ['node_modules/node-llama-cpp/bins', 'node_modules/node-llama-cpp/llama/localBuilds', 'node_modules/@node-llama-cpp/*'],
    electronFuses: {
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    },
    linux: {
      target: ['AppImage', 'deb'],
      category: 'Development',
      maintainer: 'Skillbridge contributors',
      synopsis: 'Build and test LLM tool workflows on simulated robots',
    },
    deb: { depends: ['libnss3', 'libgbm1', 'libasound2'] },
    mac: {
      target: ['dmg'],
      category: 'public.app-category.developer-tools',
      hardenedRuntime: true,
      entitlements: 'build/entitlements.mac.plist',
      entitlementsInherit: 'build/entitlements.mac.plist',
    },
    dmg: { sign: false },
    win: { target: ['nsis'] },
    nsis: { oneClick: false, perMachine: false, allowToChangeInstallationDirectory: true },
  };
}
