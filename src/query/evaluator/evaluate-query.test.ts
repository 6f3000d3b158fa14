import { describe, expect, it } from 'vitest';
import type { EvalEvent } from './eval-table.js';
import { evaluateQuery } from './evaluate-query.js';
import { baseNs, event, events } from './testing/event-builder.js';
import { and, index, match, not, or, query, text } from './testing/ast-builder.js';

describe('the raw-event table', () => {
  it('gives each event its columns plus the system columns (D4, D28)', () => {
    const e = event({ msg: 'hi', n: 1, gone: null }, { tsNs: baseNs + 123_456_789n, sourceType: 'aws:cloudtrail' });
    const result = evaluateQuery(query(), [e]);
    expect(result.columns).toEqual(['@svc.datetime', 'msg', 'n', 'gone', '@svc.time_ns', '@svc.source_type', '@index', '@index_id']);
    expect(result.rows).toEqual([
      {
        '@svc.datetime': '2026-11-21T10:00:00.123456789Z',
        msg: 'hi',
        n: 1,
        gone: null,
        '@svc.time_ns': '1795255200123456789',
        '@svc.source_type': 'aws:cloudtrail',
        '@index': 'main',
        '@index_id': '00000000-0000-4000-8000-000000000001',
      },
    ]);
  });

  it('orders rows oldest first, then by ingest order', () => {
    const list: EvalEvent[] = [
      event({ id: 'c' }, { tsNs: 30n, seq: 1n }),
      event({ id: 'b' }, { tsNs: 20n, seq: 9n }),
      event({ id: 'a' }, { tsNs: 20n, seq: 2n }),
      event({ id: 'z' }, { tsNs: -5n, seq: 3n }),
    ];
    expect(evaluateQuery(query(), list).rows.map((r) => r['id'])).toEqual(['z', 'a', 'b', 'c']);
  });

  it('lists columns in the order first seen across rows (D28)', () => {
    const result = evaluateQuery(query(), events({ b: 1, a: 2 }, { c: 3, a: 4 }));
    expect(result.columns).toEqual(['@svc.datetime', 'b', 'a', '@svc.time_ns', '@svc.source_type', '@index', '@index_id', 'c']);
  });

  it('has no columns when nothing matches', () => {
    expect(evaluateQuery(query(text('nothing')), events({ a: 'x' }))).toEqual({ columns: [], rows: [] });
  });

  it('keeps the system value when a user column has a system name', () => {
    const [row] = evaluateQuery(query(), [event({ '@index': 'fake', x: 1 })]).rows;
    expect(row?.['@index']).toBe('main');
  });

  it('treats any column name as data, __proto__ included', () => {
    const columns = JSON.parse('{"__proto__": "polluted", "constructor": 1}') as Record<string, string | number>;
    const result = evaluateQuery(query(match('__proto__', ':', 'polluted')), [event(columns)]);
    expect(result.rows).toHaveLength(1);
    expect(Object.hasOwn(result.rows[0] ?? {}, '__proto__')).toBe(true);
    expect(result.columns).toContain('__proto__');
  });

  it('never matches system columns with free text (D13)', () => {
    const list = [event({ msg: 'x' }, { sourceType: 'aws:cloudtrail', indexName: 'main' })];
    expect(evaluateQuery(query(text('cloudtrail')), list).rows).toHaveLength(0);
    expect(evaluateQuery(query(text('main')), list).rows).toHaveLength(0);
    expect(evaluateQuery(query(match('%ingest.source_type', ':', 'cloudtrail')), list).rows).toHaveLength(1);
  });
});

describe('index scope (D18)', () => {
  const list: EvalEvent[] = [
    event({ id: 'user' }, { seq: 0n, indexName: 'main', indexId: 'id-main' }),
    event({ id: 'audit' }, { seq: 1n, indexName: '_audit', indexId: 'id-audit', systemIndex: true }),
    event({ id: 'detection' }, { seq: 2n, indexName: '_detections', indexId: 'id-det', systemIndex: true }),
  ];
  const ids = (q: ReturnType<typeof query>): unknown[] => evaluateQuery(q, list).rows.map((r) => r['id']);

  it('searches only user indexes when no system index is named', () => {
    expect(ids(query())).toEqual(['user']);
    expect(ids(query(index('main')))).toEqual(['user']);
  });

  it('searches a system index when the query names it, by name or id', () => {
    expect(ids(query(index('_audit')))).toEqual(['audit']);
    expect(ids(query(index({ id: 'id-det', name: '_detections' })))).toEqual(['detection']);
    expect(ids(query(or(index('_audit'), text('user'))))).toEqual(['user', 'audit']);
    expect(ids(query(index('_audit', '_detections')))).toEqual(['audit', 'detection']);
  });

  it('brings a system index named under not into scope, where the filter drops it', () => {
    expect(ids(query(not(index('_audit'))))).toEqual(['user']);
    expect(ids(query(or(not(index('_audit')), text('audit'))))).toEqual(['user', 'audit']);
  });

  it('filters user indexes by the boolean logic', () => {
    expect(ids(query(and(text('*'), not(index('main')))))).toEqual([]);
  });
});
