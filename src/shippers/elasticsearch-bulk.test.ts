import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/index.js';
import { bulkResponse } from './elasticsearch-answers.js';
import { parseBulkBody } from './elasticsearch-bulk.js';

describe('parseBulkBody', () => {
  it('pairs index and create actions with their source line, kept exactly as sent', () => {
    const items = parseBulkBody('{"index":{"_index":"web","_id":"1"}}\n{ "a" : 1 }\r\n{"create":{}}\n{"b":2}\n', 'default-index');
    expect(items).toEqual([
      { action: 'index', index: 'web', id: '1', record: { index: 'web', line: '{ "a" : 1 }' } },
      { action: 'create', index: 'default-index', id: null, record: { index: 'default-index', line: '{"b":2}' } },
    ]);
  });

  it("makes update and delete invalid items, consuming update's source line and none for delete", () => {
    const items = parseBulkBody('{"delete":{"_id":"x"}}\n{"update":{"_id":"y"}}\n{"doc":{}}\n{"index":{}}\n{"c":3}\n', 'i');
    expect(items.map((item) => [item.action, item.record.error ?? item.record.line])).toEqual([
      ['delete', 'unsupported action: delete'],
      ['update', 'unsupported action: update'],
      ['index', '{"c":3}'],
    ]);
  });

  it('passes a source that is not JSON through, for ingest to refuse by line; an empty source is invalid', () => {
    const items = parseBulkBody('{"index":{}}\n{broken\n{"index":{}}\n   \n', null);
    expect(items.map((item) => item.record)).toEqual([
      { index: null, line: '{broken' },
      { index: null, error: 'line 4: the source of a index action is empty' },
    ]);
  });

  it.each([
    ['not JSON', 'nope\n{}\n', /Malformed action\/metadata line \[1\]/],
    ['an unknown action', '{"upsert":{}}\n{}\n', /expected field \[create\], \[delete\], \[index\] or \[update\] but found \[upsert\]/],
    ['two actions in one line', '{"index":{},"create":{}}\n{}\n', /but found \[index\], \[create\]/],
    ['a missing source line', '{"index":{}}\n', /must be terminated by a newline/],
    ['a non-string _index', '{"index":{"_index":5}}\n{}\n', /\[_index\] must be a string/],
  ])('refuses a body with %s as a whole', (_, body, message) => {
    expect(() => parseBulkBody(body, null)).toThrow(ValidationError);
    expect(() => parseBulkBody(body, null)).toThrow(message);
  });
});

describe('bulkResponse', () => {
  it('answers each item under its action, with the id it gave or a new 20-character one unique in the answer', () => {
    const items = parseBulkBody(`{"index":{"_id":"given"}}\n{"a":1}\n${'{"create":{}}\n{"b":2}\n'.repeat(50)}`, 'web');
    const answer = bulkResponse(
      items,
      items.map(() => ({ kind: 'ingested' as const })),
      3,
    ) as { errors: boolean; items: Record<string, { _id: string; _index: string; status: number; result: string }>[] };
    expect(answer.errors).toBe(false);
    expect(answer.items[0]?.['index']).toMatchObject({ _id: 'given', _index: 'web', status: 201, result: 'created' });
    const made = answer.items.slice(1).map((item) => item['create']?._id ?? '');
    expect(made.every((id) => /^[A-Za-z0-9_-]{20}$/.test(id))).toBe(true);
    expect(new Set(made).size).toBe(50);
  });
});
