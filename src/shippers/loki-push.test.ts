import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeLokiJson, parseLabelSet } from './loki-push.js';

describe('parseLabelSet', () => {
  it('reads a Prometheus label set with escapes and spacing', () => {
    expect(parseLabelSet('{job="api", host = "web-1",msg="say \\"hi\\"\\n\\\\"}')).toEqual({ job: 'api', host: 'web-1', msg: 'say "hi"\n\\' });
    expect(parseLabelSet('{}')).toEqual({});
    expect(parseLabelSet(' {a="1",} ')).toEqual({ a: '1' });
  });

  it.each(['', 'job="x"', '{job=x}', '{1a="x"}', '{a="x"', '{a="x"} extra', '{a="x" b="y"}'])('refuses %j', (text) => {
    expect(parseLabelSet(text)).toBeNull();
  });

  it('reads back any label set it is given in the canonical form', () => {
    const name = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,10}$/);
    fc.assert(
      fc.property(fc.dictionary(name, fc.string({ maxLength: 12 })), (labels) => {
        const text = `{${Object.entries(labels)
          .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`)
          .join(', ')}}`;
        expect(parseLabelSet(text)).toEqual(labels);
      }),
      { seed: 7, numRuns: 200 },
    );
  });
});

describe('decodeLokiJson', () => {
  it('stores labels, structured metadata, the line and its nanosecond time, routed by vigil_index', () => {
    const body = { streams: [{ stream: { app: 'a', vigil_index: 'edge' }, values: [['1700000000000000001', 'hello', { trace_id: 't1' }]] }] };
    expect(decodeLokiJson(JSON.stringify(body))).toEqual([
      { index: 'edge', line: '{"app":"a","vigil_index":"edge","structured_metadata":{"trace_id":"t1"},"message":"hello","@timestamp":"2023-11-14T22:13:20.000000001Z"}' },
    ]);
  });

  it('refuses a body that is not a push as a whole', () => {
    expect(() => decodeLokiJson('[]')).toThrow(/streams/);
    expect(() => decodeLokiJson('{')).toThrow(/invalid JSON/);
  });
});
