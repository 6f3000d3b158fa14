// The conventions of CONVENTIONS.md that a tool can check, run by `npm test` (`npm run lint`).
// Deliberately small: each rule here encodes one written convention; formatting is Prettier's.
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Tests, their shared fixtures and contract suites: they may read the clock and the environment. */
const tests = ['src/**/*.test.ts', 'src/**/testing/**'];
/** config/ is the only reader of the environment; the composition roots start the process (and read the clock). */
const roots = ['src/config/**', 'src/bin.ts', 'src/server.ts', 'src/runtime.ts', 'src/bounded-shutdown.ts'];
/** The adapters and core's clock may read the wall clock, not the environment. */
const clockOwners = ['src/core/clock.ts', 'src/engine/chdb/**', 'src/engine/clickhouse/**', 'src/store/sqlite/**', 'src/store/postgres/**'];

const clockMessage = 'take a Clock argument (src/core/clock.ts) so the logic is replayable (CONVENTIONS 7)';
const env = { object: 'process', property: 'env', message: 'read settings through src/config/, the only reader of process.env (CONVENTIONS 7)' };
const dateNow = { object: 'Date', property: 'now', message: clockMessage };
const newDate = { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: clockMessage };
const bareError = {
  selector: "NewExpression[callee.name='Error']",
  message: 'throw a typed error from src/core/errors.ts with its catalog code (CONVENTIONS 5); for an internal invariant, disable this line with a comment saying so',
};

export default defineConfig(
  { ignores: ['dist/**', 'node_modules/**', '.bench/**', 'console/build/**', '**/testdata/**', 'src/store/sqlite/sqlite-thread.js'] },
  {
    files: ['src/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its failure (CONVENTIONS 6); `void` marks a deliberate fire-and-forget.
      '@typescript-eslint/no-floating-promises': 'error',
      // Prettier sets the code's width (.prettierrc.json) but leaves comments as written: they
      // share its 180 columns. Code is left to Prettier (it may not break a long string).
      'max-len': ['error', { code: 1000, comments: 180, ignoreUrls: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-properties': ['error', env, dateNow],
      'no-restricted-syntax': ['error', newDate, bareError],
    },
  },
  {
    files: roots,
    rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': ['error', bareError] },
  },
  {
    files: clockOwners,
    rules: { 'no-restricted-properties': ['error', env], 'no-restricted-syntax': ['error', bareError] },
  },
  {
    files: tests,
    rules: { 'no-restricted-properties': 'off', 'no-restricted-syntax': 'off' },
  },
);
