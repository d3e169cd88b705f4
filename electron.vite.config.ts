// electron-vite: builds the desktop app into out/ (main + the simulation worker,
// the sandboxed preload, the renderer). `npm run dist` packages it.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // The worker is its own entry: main starts it with new Worker(out/main/sim-worker.js).
        input: {
          index: resolve(root, 'electron/main/index.ts'),
          'sim-worker': resolve(root, 'hosts/service/worker.ts'),
          'eval-worker': resolve(root, 'eval/runner/worker.ts'),
          // The local model's process: main starts it as a utility process (electron/main/model-process.ts).
          'llama-process': resolve(root, 'agents/models/local/llama-process.mjs'),
        },
        output: { format: 'es', entryFileNames: '[name].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload cannot load modules: bundle zod and the contract into one CommonJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'electron/preload/index.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'renderer'),
    base: './',
    plugins: [react()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      chunkSizeWarningLimit: 4000,
      rollupOptions: { input: resolve(root, 'renderer/index.html') },
    },
  },
});
