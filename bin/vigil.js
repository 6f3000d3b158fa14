#!/usr/bin/env node
// Entry point of the `vigil` command: runs the compiled CLI (built by `npm install` via `prepare`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const main = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(main)) {
  process.stderr.write('vigil: dist/ is missing; run `npm run build` (npm install does it for you)\n');
  process.exit(1);
}
await import(main);
