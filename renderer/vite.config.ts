// Builds the renderer (React + Babylon) for both hosts: Electron loads it from
// its own protocol, web mode serves it from renderer/dist. Relative asset paths
// so either origin works.
import react from '@vitejs/plugin-react';
import { type Plugin, defineConfig } from 'vite';

/**
 * The small entry (main.tsx) connects to the host while the app itself (root.tsx:
 * React, Babylon, the panels) loads: the page asks for the app's chunks at once,
 * not only when the entry has run.
 */
function preloadApp(): Plugin {
  return {
    name: 'skillbridge-preload-app',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const bundle = ctx.bundle;
        if (!bundle) return [];
        const root = Object.values(bundle).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/renderer/src/root.tsx'));
        if (!root || root.type !== 'chunk') return [];
        const files = [root.fileName, ...root.imports.filter((f) => !bundle[f] || (bundle[f].type === 'chunk' && !bundle[f].isEntry))];
        return files.map((f) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${f}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react(), preloadApp()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Babylon alone is over the default warning size; it is loaded once, from disk.
    chunkSizeWarningLimit: 4000,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
