/**
 * `npm run bench -- fuzz-parser [--cases N] [--seed S]`: feeds the query parser N random and
 * mutated inputs (default 1,000,000) and checks each as the fuzz test does: no throw, a tree
 * that prints and parses back the same, or diagnostics at real positions. Prints cases per
 * second and the first failures, then the rate of `parseQuery` alone; exits 1 if any case failed.
 */
import { parseArgs } from 'node:util';
import { parseQuery } from '../src/query/parser/parser.js';
import { checkParse, createRandom, fuzzText } from '../src/query/testing/parser-fuzz.js';

export async function runFuzzParser(_repoDir: string, argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { cases: { type: 'string', default: '1000000' }, seed: { type: 'string' } } });
  const cases = Number(values.cases);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  if (!Number.isInteger(cases) || cases < 1 || !Number.isInteger(seed)) {
    process.stderr.write('usage: npm run bench -- fuzz-parser [--cases N] [--seed S]\n');
    return 2;
  }
  const random = createRandom(seed);
  const failures: string[] = [];
  let failed = 0;
  let characters = 0;
  const started = performance.now();
  for (let i = 0; i < cases; i++) {
    const text = fuzzText(random);
    characters += text.length;
    const problem = checkParse(text);
    if (problem) {
      failed += 1;
      if (failures.length < 10) failures.push(`  ${JSON.stringify(text)}\n    ${problem}`);
    }
    if ((i + 1) % 100_000 === 0) process.stdout.write(`  ${i + 1} cases, ${failed} failed\n`);
  }
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `fuzz-parser: ${cases} cases (seed ${seed}, ${(characters / cases).toFixed(1)} chars on average) in ${seconds.toFixed(1)} s, ` +
      `${Math.round(cases / seconds)} cases/s, ${failed} failed\n`,
  );
  if (failures.length > 0) process.stdout.write(`first failures:\n${failures.join('\n')}\n`);
  process.stdout.write(`parseQuery alone: ${Math.round(parseOnlyRate(seed, Math.min(cases, 200_000)))} inputs/s on the same inputs\n`);
  await Promise.resolve();
  return failed === 0 ? 0 : 1;
}

/** Inputs per second that `parseQuery` alone handles (the check above also prints and re-parses). */
function parseOnlyRate(seed: number, cases: number): number {
  const random = createRandom(seed);
  const inputs = Array.from({ length: cases }, () => fuzzText(random));
  const started = performance.now();
  for (const text of inputs) parseQuery(text);
  return cases / ((performance.now() - started) / 1000);
}
