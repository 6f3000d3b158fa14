import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flattenEvent, type FlatEvent } from './flatten-event.js';
import { parseJsonText } from './parse-json-text.js';

/**
 * Golden cases in testdata/flatten/*.txt: a description, `-- event --` with the event's JSON,
 * then `-- attrs --` (pretty JSON) and `-- null paths --`, or `-- error --`. Refresh with
 * `UPDATE_GOLDEN=1 npx vitest run src/ingest/flatten-event.test.ts` and review the diff.
 */
const goldenDir = fileURLToPath(new URL('./testdata/flatten/', import.meta.url));
const update = process.env['UPDATE_GOLDEN'] === '1';

interface GoldenCase {
  readonly description: string;
  readonly event: string;
  readonly expected: string | null;
}

function readGolden(file: string): GoldenCase {
  const text = readFileSync(join(goldenDir, file), 'utf8');
  const eventAt = text.indexOf('\n-- event --\n');
  const body = text.slice(eventAt + '\n-- event --\n'.length);
  const resultAt = body.search(/^-- (attrs|error) --$/m);
  return {
    description: text.slice(0, eventAt).trim(),
    event: (resultAt < 0 ? body : body.slice(0, resultAt)).trim(),
    expected: resultAt < 0 ? null : body.slice(resultAt).trimEnd(),
  };
}

function render(event: string): string {
  const parsed = parseJsonText(event);
  if (!parsed.ok) throw new Error(`golden event is not JSON: ${parsed.problem}`);
  let flat: FlatEvent;
  try {
    flat = flattenEvent(parsed.value as Record<string, unknown>);
  } catch (error) {
    return `-- error --\n${(error as Error).message}`;
  }
  return `-- attrs --\n${JSON.stringify(flat.attrs, null, 2)}\n-- null paths --\n${JSON.stringify(flat.nullPaths)}`;
}

describe('flattenEvent golden cases', () => {
  const files = readdirSync(goldenDir).filter((f) => f.endsWith('.txt'));

  it('has golden cases', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it.each(files)('%s', (file) => {
    const golden = readGolden(file);
    const actual = render(golden.event);
    if (update) {
      writeFileSync(join(goldenDir, file), `${golden.description}\n-- event --\n${golden.event}\n${actual}\n`);
      return;
    }
    expect(golden.expected, `${file} has no expected output; run with UPDATE_GOLDEN=1`).not.toBeNull();
    expect(actual).toBe(golden.expected);
  });
});

/** Keys without `.`, `[`, `]` (and not empty), so a path names exactly one place in the event. */
const plainKey = fc.stringMatching(/^[a-zA-Z_@][a-zA-Z0-9_@-]{0,6}$/).filter((k) => k !== '__proto__');
const scalar = fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null));
const plainEvent = fc.letrec<{ obj: Record<string, unknown>; value: unknown }>((tie) => ({
  obj: fc.dictionary(plainKey, tie('value'), { maxKeys: 5 }),
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('obj'), fc.array(tie('value'), { maxLength: 4 })),
})).obj;

/** The reference: every leaf with its path, written as plainly as possible. */
function referenceLeaves(value: unknown, path: string, out: Map<string, unknown>): void {
  if (Array.isArray(value)) value.forEach((item, i) => referenceLeaves(item, `${path}[${i}]`, out));
  else if (value !== null && typeof value === 'object') for (const [key, item] of Object.entries(value)) referenceLeaves(item, path === '' ? key : `${path}.${key}`, out);
  else out.set(path, typeof value === 'boolean' ? String(value) : value);
}

/** Rebuilds the nested event from its columns (possible because plain keys hold no `.` or `[`). */
function unflatten(flat: FlatEvent): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const put = (path: string, value: unknown): void => {
    const steps = path.split(/\.|(?=\[)/).map((s) => (s.startsWith('[') ? Number(s.slice(1, -1)) : s));
    let node: Record<string | number, unknown> = root;
    steps.forEach((step, i) => {
      if (i === steps.length - 1) node[step] = value;
      else node = (node[step] ??= typeof steps[i + 1] === 'number' ? [] : {}) as Record<string | number, unknown>;
    });
  };
  for (const [path, value] of Object.entries(flat.attrs)) put(path, value);
  for (const path of flat.nullPaths) put(path, null);
  return root;
}

/** Events whose arrays and objects are never empty, so every container holds a leaf. */
const fullEvent = fc.letrec<{ obj: Record<string, unknown>; value: unknown }>((tie) => ({
  obj: fc.dictionary(plainKey, tie('value'), { minKeys: 1, maxKeys: 5 }),
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('obj'), fc.array(tie('value'), { minLength: 1, maxLength: 4 })),
})).obj;

function booleansAsStrings(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'boolean' ? String(v) : v)));
}

describe('flattenEvent properties', () => {
  it('agrees with the reference: each leaf at its path, nulls apart, booleans as strings', () => {
    fc.assert(
      fc.property(plainEvent, (event) => {
        const reference = new Map<string, unknown>();
        referenceLeaves(event, '', reference);
        const flat = flattenEvent(event);
        const expectedAttrs = [...reference].filter(([, v]) => v !== null);
        const expectedNulls = [...reference].filter(([, v]) => v === null).map(([p]) => p);
        expect(Object.entries(flat.attrs).sort()).toEqual(expectedAttrs.sort());
        expect([...flat.nullPaths].sort()).toEqual(expectedNulls.sort());
      }),
    );
  });

  it('loses nothing: unflattening gives the event back, booleans as strings', () => {
    fc.assert(
      fc.property(fullEvent, (event) => {
        expect(JSON.parse(JSON.stringify(unflatten(flattenEvent(event))))).toEqual(booleansAsStrings(event));
      }),
      { numRuns: 300 },
    );
  });

  it('gives each path once, never in both attrs and nullPaths, for any JSON object', () => {
    const anyEvent = fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 8 });
    fc.assert(
      fc.property(anyEvent, (event) => {
        const flat = flattenEvent(event);
        const paths = Object.keys(flat.attrs);
        expect(new Set(flat.nullPaths).size).toBe(flat.nullPaths.length);
        expect(flat.nullPaths.filter((p) => Object.hasOwn(flat.attrs, p))).toEqual([]);
        for (const p of paths) expect(['string', 'number']).toContain(typeof flat.attrs[p]);
        // the attrs text round-trips, which is what the engine receives
        expect(Object.keys(JSON.parse(JSON.stringify(flat.attrs)) as object).sort()).toEqual(paths.sort());
      }),
      { numRuns: 500 },
    );
  });

  it('lets the later spelling of a path win, literal or nested', () => {
    fc.assert(
      fc.property(plainKey, plainKey, fc.integer(), fc.integer(), fc.boolean(), (a, b, first, second, literalFirst) => {
        const literal: [string, unknown] = [`${a}.${b}`, literalFirst ? first : second];
        const nested: [string, unknown] = [a, { [b]: literalFirst ? second : first }];
        const event = Object.fromEntries(literalFirst ? [literal, nested] : [nested, literal]);
        expect(flattenEvent(event).attrs[`${a}.${b}`]).toBe(second);
      }),
    );
  });
});
