// Builds the renderer (React + Babylon) for both hosts: Electron loads it from
// its own protocol, web mode serves it from renderer/dist. Relative asset paths
// so either origin works.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Babylon alone is over the default warning size; it is loaded once, from disk.
    chunkSizeWarningLimit: 4000,
  },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
