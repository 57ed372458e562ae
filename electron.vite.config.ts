import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      // graphology's packages are imported by deep paths without extensions, which Node's ESM
      // resolver refuses from an external module: bundle them (pure JS) instead.
      externalizeDeps: { exclude: ['graphology-metrics', 'graphology-shortest-path', 'graphology-communities-louvain', 'graphology-utils', 'graphology-indices'] },
      // The engine runs in a utilityProcess (engine-process); native modules stay external (node_modules).
      rollupOptions: {
        // lexical-worker: the thread that computes the lexical list of large vaults; lexical-upgrade-worker: the
        // thread that rebuilds an older store's word index; prepare-worker: the threads that read and analyze a large index
        // run's files (search/lexical-thread.ts workerEntry finds each beside engine-process.js).
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          'engine-process': resolve(__dirname, 'src/main/engine-process.ts'),
          'lexical-worker': resolve(__dirname, 'src/engine/search/lexical-worker.ts'),
          'lexical-upgrade-worker': resolve(__dirname, 'src/engine/search/lexical-upgrade-worker.ts'),
          'prepare-worker': resolve(__dirname, 'src/engine/ingest/prepare-worker.ts'),
        },
        external: ['better-sqlite3', 'node-llama-cpp', 'usearch', 'faiss-node', 'pdfjs-dist', 'chokidar', 'mammoth'],
      },
    },
  },
  preload: {
    // A sandboxed preload can require nothing but electron: bundle everything into one CommonJS file.
    build: {
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: { minify: true, rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } } },
    plugins: [react()],
  },
});
