import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanOtlpJson } from './otlp-json-scan.js';
import { decodeOtlpJson, decodeParsedOtlpJson } from './otlp-logs.js';

/**
 * JSON text written member by member, so that a test can give a key twice, put members in any
 * order, write a token in a way JSON.stringify would not (`raw`) and spread whitespace around.
 */
type Json = string | number | boolean | null | { readonly raw: string } | { readonly members: readonly (readonly [string, Json])[] } | { readonly items: readonly Json[] };

function write(value: Json, space: string): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if ('raw' in value) return value.raw;
  if ('items' in value) return `[${space}${value.items.map((item) => write(item, space)).join(`${space},${space}`)}${space}]`;
  return `{${space}${value.members.map(([key, member]) => `${JSON.stringify(key)}${space}:${space}${write(member, space)}`).join(`${space},${space}`)}${space}}`;
}

const object = (...members: (readonly [string, Json] | null)[]): Json => ({ members: members.filter((m) => m !== null) });
const optional = (key: string, value: fc.Arbitrary<Json>) => fc.option(value.map((v) => [key, v] as const));
/** The members given, in any order. */
const inAnyOrder = (members: readonly (readonly [string, Json] | null)[]) => {
  const given = members.filter((m) => m !== null);
  return fc.shuffledSubarray(given, { minLength: given.length });
};

/** Strings that need escaping, surrogate pairs and lone surrogates among them. */
const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', 'C:\\Windows\\System32', 'say "hi"\n\ttab', '\u0001\u001f\u007f', 'é😀', '\ud800', 'vigil.index', '2028\u2028'),
);
/** The same string written another way than JSON.stringify writes it (`\u0041`, `\/`). */
const spelledOut = fc.constantFrom('"\\u0041b"', '"a\\/b"', '"\\ud83d\\ude00"', '"\\u00e9"', '"\\ud800"');
const int = fc.oneof(
  fc.integer().map((n) => String(n)),
  fc.integer(),
  fc.constantFrom<Json>({ raw: '-9223372036854775808' }, { raw: '18446744073709551615' }, '-9223372036854775808', '1e3', 1.5, 0),
);
const scalar: fc.Arbitrary<Json> = fc.oneof(
  text,
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  int,
  spelledOut.map((raw) => ({ raw })),
);

const { anyValue } = fc.letrec<{ anyValue: Json; keyValue: Json }>((tie) => ({
  anyValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text.map((s) => object(['stringValue', s])),
    spelledOut.map((raw) => object(['stringValue', { raw }])),
    scalar.map((v) => object(['boolValue', v])),
    int.map((v) => object(['intValue', v])),
    fc.oneof(fc.double(), fc.constantFrom<Json>('NaN', '-Infinity', '2.5', null, true, { items: [] }, { items: [5] }, object())).map((v) => object(['doubleValue', v])),
    fc.oneof(fc.base64String(), scalar).map((v) => object(['bytesValue', v])),
    fc.array(fc.oneof(tie('anyValue'), scalar), { maxLength: 3 }).map((items) => object(['arrayValue', object(['values', { items }])])),
    fc.array(tie('keyValue'), { maxLength: 3 }).map((items) => object(['kvlistValue', object(['values', { items }])])),
    fc.constant(object()),
    // what the scan leaves to JSON.parse: two members, an unknown one, a string that is not one
    fc.constantFrom(object(['stringValue', 'a'], ['intValue', '1']), object(['unknownValue', 1]), object(['stringValue', 5])),
  ),
  keyValue: fc.oneof(
    fc.tuple(text, tie('anyValue')).map(([key, value]) => object(['key', key], ['value', value])),
    fc.tuple(tie('anyValue'), text).map(([value, key]) => object(['value', value], ['key', key])),
    fc.constantFrom(object(['key', 'no value']), object(['key', 7], ['value', object(['stringValue', 'x'])]), object(['key', 'k'], ['value', 'not an AnyValue']), 'not a KeyValue'),
    fc.constantFrom('a', 'vigil.index').chain((key) => text.map((s) => object(['key', key], ['value', object(['stringValue', s])]))),
  ),
}));

const attributes: fc.Arbitrary<Json> = fc.oneof(
  fc
    .array(fc.letrec<{ kv: Json }>(() => ({ kv: fc.tuple(text, anyValue).map(([key, value]) => object(['key', key], ['value', value])) })).kv, { maxLength: 4 })
    .map((items) => ({ items })),
  fc.constant<Json>(null),
);

const logRecord: fc.Arbitrary<Json> = fc
  .tuple(
    optional('timeUnixNano', fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String), int)),
    optional('observedTimeUnixNano', fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 63n }).map(String), scalar)),
    optional('severityText', scalar),
    optional('severityNumber', int),
    optional('body', fc.oneof(anyValue, scalar)),
    optional('attributes', attributes),
    optional('traceId', fc.oneof(fc.constantFrom('5B8EFFF798038103D269B633813FC60C', ''), scalar)),
    optional('spanId', fc.oneof(fc.constant('eee19b7ec3c1b174'), scalar)),
    optional('flags', int),
    optional('eventName', scalar),
    optional('droppedAttributesCount', int),
    optional('unknownField', fc.oneof(scalar, anyValue)),
  )
  .chain((members) => inAnyOrder(members))
  .chain((members) => fc.oneof({ weight: 4, arbitrary: fc.constant(members) }, fc.constant([...members, ...members.slice(0, 1)]))) // a member given twice
  .map((members) => ({ members }));

const scope = fc
  .tuple(optional('name', scalar), optional('version', scalar), optional('attributes', attributes), optional('droppedAttributesCount', int))
  .map((members) => object(...members));

const scopeLogs = fc
  .tuple(
    optional('scope', fc.oneof(scope, scalar)),
    optional('schemaUrl', scalar),
    optional(
      'logRecords',
      fc.array(fc.oneof({ weight: 5, arbitrary: logRecord }, scalar), { minLength: 1, maxLength: 3 }).map((items): Json => ({ items })),
    ),
  )
  .chain((members) => inAnyOrder(members))
  .map((members) => ({ members }));

const resource = fc.tuple(optional('attributes', attributes), optional('droppedAttributesCount', int)).map((members) => object(...members));

const resourceLogs = fc
  .tuple(
    optional('resource', fc.oneof(resource, scalar)),
    optional('schemaUrl', scalar),
    optional(
      'scopeLogs',
      fc.array(scopeLogs, { minLength: 1, maxLength: 2 }).map((items): Json => ({ items })),
    ),
  )
  .chain((members) => inAnyOrder(members))
  .map((members) => ({ members }));

const request = fc
  .tuple(fc.array(fc.oneof({ weight: 5, arbitrary: resourceLogs }, scalar), { minLength: 1, maxLength: 2 }), fc.constantFrom('', ' ', '\n\t '))
  .map(([items, space]) => ({
    text: write(object(['resourceLogs', { items }]), space),
    space,
  }));

describe('reading OTLP/JSON from its text', () => {
  it('gives the events the parsed value gives, or leaves the request to it', () => {
    let scanned = 0;
    fc.assert(
      fc.property(request, ({ text }) => {
        const fromText = scanOtlpJson(text);
        if (fromText === null) return;
        scanned++;
        expect(fromText).toEqual(decodeParsedOtlpJson(text));
      }),
      { numRuns: 1000 },
    );
    expect(scanned).toBeGreaterThan(300); // the scan reads most requests itself
  });

  it('reads every well-formed request itself, whatever the order of its members and its whitespace', () => {
    const wellFormed = fc.tuple(fc.array(fc.tuple(text, text), { maxLength: 4 }), text, fc.constantFrom('', ' ', '\r\n  ')).map(([pairs, body, space]) =>
      write(
        object([
          'resourceLogs',
          {
            items: [
              object(
                [
                  'scopeLogs',
                  {
                    items: [
                      object(
                        [
                          'logRecords',
                          {
                            items: [
                              object(
                                ['attributes', { items: pairs.map(([key, value]) => object(['key', `attr ${key}`], ['value', object(['stringValue', value])])) }],
                                ['body', object(['stringValue', body])],
                              ),
                            ],
                          },
                        ],
                        ['scope', object(['name', 'late scope'])],
                      ),
                    ],
                  },
                ],
                ['resource', object(['attributes', { items: [object(['key', 'vigil.index'], ['value', object(['stringValue', 'late-index'])])] }])],
              ),
            ],
          },
        ]),
        space,
      ),
    );
    fc.assert(
      fc.property(wellFormed, (text) => {
        const fromText = scanOtlpJson(text);
        expect(fromText).not.toBeNull();
        expect(fromText).toEqual(decodeParsedOtlpJson(text));
        expect(fromText?.[0]?.index).toBe('late-index');
      }),
      { numRuns: 200 },
    );
  });

  it('leaves text that is not JSON to the reader that explains it', () => {
    const good = '{"resourceLogs":[{"scopeLogs":[{"logRecords":[{"body":{"stringValue":"a"}}]}]}]}';
    expect(scanOtlpJson(good)).toEqual([{ index: null, line: '{"body":"a"}' }]);
    for (const bad of [
      good.slice(0, -1),
      `${good}x`,
      good.replace('"a"', '"a\nb"'),
      good.replace('"a"', '"a\\qb"'),
      good.replace('{"stringValue":"a"}', '{"intValue":01}'),
      `\ufeff${good}`,
    ]) {
      expect(scanOtlpJson(bad)).toBeNull();
    }
    expect(() => decodeOtlpJson(good.slice(0, -1))).toThrow(/^invalid JSON: .*\d/);
  });
});
