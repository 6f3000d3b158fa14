import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.js';

const root = fileURLToPath(new URL('.', import.meta.url));

// The console builds into dist/console, which `vigil serve` serves at `/` (src/api/routes/console-routes.ts).
export default defineConfig({
  root,
  base: '/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/console', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // The preload helper is an inline-free module import; no polyfill (every supported browser has modulepreload).
    modulePreload: { polyfill: false },
  },
  plugins: [precompress()],
  // `npm run console:dev`: the console with hot reload, the API of a server running on :8080.
  server: { proxy: { '/v1': 'http://127.0.0.1:8080', '/schema': 'http://127.0.0.1:8080' } },
});
