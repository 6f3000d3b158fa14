import { describe, expect, it } from 'vitest';
import type { Filter } from '../ast.js';
import type { TableValue } from './eval-table.js';
import { evaluateFilter } from './evaluate-filter.js';
import { and, bare, compare, double, index, match, not, num, or, single, text, vand, vnot, vor } from './testing/ast-builder.js';

type TestRow = Record<string, TableValue>;
const passes = (filter: Filter, row: TestRow): boolean => evaluateFilter(filter, row);

describe('free text (D13)', () => {
  const row = { message: 'INFO Successfully added item', other: 'x' };
  it('needs every term, in any order and any letter case (spec examples 1-4)', () => {
    expect(passes(and(text('info'), text('successfully'), text('added')), row)).toBe(true);
    expect(passes(and(text('INFO'), text('Successfully'), text('added')), row)).toBe(true);
    expect(passes(and(text('added'), text('info'), text('successfully')), row)).toBe(true);
    expect(passes(and(text('info'), text('removed')), row)).toBe(false);
  });

  it('lets each term match in a different column', () => {
    expect(passes(and(text('info'), text('added')), { a: 'info', b: 'added later' })).toBe(true);
  });

  it('searches numbers by their text and never matches null', () => {
    expect(passes(text(double('200')), { status: 200 })).toBe(true);
    expect(passes(text(num('200.0')), { status: 200 })).toBe(true);
    expect(passes(text('null'), { a: null })).toBe(false);
  });

  it('skips system columns, unless told to search all columns (where after an aggregation)', () => {
    const system = { '@svc.source_type': 'aws', '@svc.other': 'aws', '@index': 'main', '@index_id': 'main', msg: 'x' };
    for (const term of ['aws', 'main']) {
      expect(passes(text(term), system)).toBe(false);
      expect(evaluateFilter(text(term), system, { searchColumns: 'allColumns' })).toBe(true);
    }
  });

  it('matches every row with a wildcard-only term, even one without user columns', () => {
    expect(passes(text('*'), {})).toBe(true);
    expect(passes(text('**'), { '@index': 'main' })).toBe(true);
    expect(passes(text(single('')), { a: 'x' })).toBe(false);
    expect(passes(text(single('')), { a: '' })).toBe(true);
  });
});

describe('column filters (D14)', () => {
  it('tests existence with a wildcard-only value, null included', () => {
    for (const op of [':', '='] as const) {
      expect(passes(match('errorCode', op, '*'), { errorCode: null })).toBe(true);
      expect(passes(match('errorCode', op, '*'), { errorCode: 'Denied' })).toBe(true);
      expect(passes(match('errorCode', op, '*'), { other: 'x' })).toBe(false);
      expect(passes(not(match('errorCode', op, '*')), { other: 'x' })).toBe(true);
    }
  });

  it('never matches a term against null', () => {
    expect(passes(match('a', ':', 'null'), { a: null })).toBe(false);
    expect(passes(match('a', '=', single('')), { a: null })).toBe(false);
    expect(passes(not(match('a', ':', 'x')), { a: null })).toBe(true);
  });

  it('contains with `:` and whole value with `=`', () => {
    const row = { message: 'info - successfully added item', eventName: 'PutUserPolicy' };
    expect(passes(match('message', ':', single('info - successfully added item')), row)).toBe(true);
    expect(passes(match('message', '=', single('info - successfully added item')), row)).toBe(true);
    expect(passes(match('message', ':', 'added'), row)).toBe(true);
    expect(passes(match('message', '=', 'added'), row)).toBe(false);
    expect(passes(match('eventName', '=', 'putuserpolicy'), row)).toBe(true);
    expect(passes(match('eventName', '=', double('putuserpolicy')), row)).toBe(false);
    expect(passes(match('status', '=', num('200.0')), { status: 200 })).toBe(true);
    expect(passes(match('status', '=', num('200.0')), { status: '200' })).toBe(false);
  });

  it('matches only the named column, case-sensitively', () => {
    expect(passes(match('a', ':', 'x'), { b: 'x' })).toBe(false);
    expect(passes(match('status', ':', '*'), { Status: 1 })).toBe(false);
  });
});

describe('value groups distribute over the column (D15)', () => {
  it('reads juxtaposed values as or (spec example 72)', () => {
    const f = match('eventName', ':', vor('DeleteAlarms', 'DeleteDetector', 'DeleteRule'));
    expect(passes(f, { eventName: 'DeleteDetector' })).toBe(true);
    expect(passes(f, { eventName: 'CreateDetector' })).toBe(false);
  });

  it('honours and (spec example 67)', () => {
    const f = match('CommandLine', ':', vand(single(' -clsid '), single(' -target '), single(' -victim ')));
    expect(passes(f, { CommandLine: 'x.exe -clsid 1 -target 2 -victim 3' })).toBe(true);
    expect(passes(f, { CommandLine: 'x.exe -clsid 1 -target 2' })).toBe(false);
  });

  it('honours not: col: (a and not b) is col: a and not col: b', () => {
    const f = match('level', ':', vand('error', vnot('timeout')));
    expect(passes(f, { level: 'error disk' })).toBe(true);
    expect(passes(f, { level: 'error timeout' })).toBe(false);
    // `col: (not a)` is `not col: a`, so a missing column passes
    expect(passes(match('level', ':', vnot('error')), {})).toBe(true);
  });
});

describe('column-name wildcards (D16)', () => {
  it('holds when any matching column satisfies the filter', () => {
    const row = { 'tags[0]': 'user', 'tags[1]': 'admin', 'tags[2].x': 'deep' };
    expect(passes(match('tags[*]', ':', 'admin'), row)).toBe(true);
    expect(passes(match('tags[*]', ':', 'deep'), row)).toBe(false);
    expect(passes(match('tags**', ':', 'deep'), row)).toBe(true);
    expect(passes(match('tags[**]', ':', 'deep'), row)).toBe(false); // the name must end with ]
    expect(passes(not(match('tags[*]', ':', 'admin')), row)).toBe(false);
  });

  it('lets * cross neither . nor brackets, and ** cross anything', () => {
    expect(passes(match('*.arn', ':', 'x'), { 'user.arn': 'x' })).toBe(true);
    expect(passes(match('*.arn', ':', 'x'), { 'a.b.arn': 'x' })).toBe(false);
    expect(passes(match('*.arn', ':', 'x'), { 'a[0].arn': 'x' })).toBe(false);
    expect(passes(match('**', ':', double('23.27.124.45')), { 'a[3].b.ip': 'from 23.27.124.45' })).toBe(true);
  });

  it('distributes a group before the wildcard: each value may match a different column', () => {
    const row = { 'tags[0]': 'a', 'tags[1]': 'b' };
    expect(passes(match('tags[*]', ':', vand('a', 'b')), row)).toBe(true);
  });

  it('tests existence of any matching column, even holding null', () => {
    expect(passes(match('tags[*]', ':', '*'), { 'tags[4]': null })).toBe(true);
    expect(passes(match('tags[*]', ':', '*'), { tags: 'x' })).toBe(false);
  });

  it('range over the columns free text searches: never system columns of raw events', () => {
    const row = { '@index': 'main', '@svc.source_type': 'aws:cloudtrail', a: 'x' };
    expect(passes(match('**', ':', 'main'), row)).toBe(false);
    expect(passes(match('*', ':', '*'), { '@index': 'main' })).toBe(false);
    expect(passes(match('@scnr.*', ':', 'cloudtrail'), row)).toBe(false);
    expect(passes(match('@scnr.source_type', ':', 'cloudtrail'), row)).toBe(true);
    expect(evaluateFilter(match('**', ':', 'main'), row, { searchColumns: 'allColumns' })).toBe(true);
    expect(evaluateFilter(compare('@q.*', '>', 1), { '@q.count': 2 }, { searchColumns: 'allColumns' })).toBe(true);
    expect(evaluateFilter(compare('@q.*', '>', 1), { '@q.count': 2 })).toBe(true); // @q.* are not system columns
  });
});

describe('aliases (D1)', () => {
  const row = { '@svc.source_type': 'aws:cloudtrail' };
  it('reads @scnr.x as @svc.x and %ingest.source_type as @svc.source_type', () => {
    expect(passes(match('@scnr.source_type', '=', double('aws:cloudtrail')), row)).toBe(true);
    expect(passes(match('%ingest.source_type', ':', double('aws:cloudtrail')), row)).toBe(true);
    expect(passes(match('%ingest.other', ':', '*'), row)).toBe(false);
  });

  it("reads the published product's @scanner.x as @svc.x too", () => {
    expect(passes(match('@scanner.source_type', '=', double('aws:cloudtrail')), row)).toBe(true);
    expect(passes(match('@scannerx.source_type', ':', '*'), row)).toBe(false);
  });
});

describe('comparisons (D17)', () => {
  it.each<[TableValue | undefined, boolean]>([
    [404, true],
    ['404', true],
    ['4.04e2', true],
    [399.5, false],
    ['404 Not Found', false],
    ['abc', false],
    [null, false],
    [undefined, false],
  ])('status_code >= 400 on %j is %s', (value, expected) => {
    const row: TestRow = value === undefined ? {} : { status_code: value };
    expect(passes(compare('status_code', '>=', 400), row)).toBe(expected);
  });

  it('compares each operator strictly or not', () => {
    const row = { n: 5 };
    expect([passes(compare('n', '<', 5), row), passes(compare('n', '<=', 5), row)]).toEqual([false, true]);
    expect([passes(compare('n', '>', 5), row), passes(compare('n', '>=', 5), row)]).toEqual([false, true]);
  });

  it('takes a quoted decimal as the bound, anything else never matches', () => {
    expect(passes(compare('n', '>', double('4')), { n: 5 })).toBe(true);
    expect(passes(compare('n', '>', bare('abc')), { n: 5 })).toBe(false);
    expect(passes(compare('n', '<', bare('abc')), { n: 5 })).toBe(false);
  });
});

describe('== and != inside where (D24)', () => {
  it('compares type and value, strings exactly', () => {
    expect(passes(compare('n', '==', 5), { n: 5 })).toBe(true);
    expect(passes(compare('n', '==', num('5.0')), { n: 5 })).toBe(true);
    expect(passes(compare('n', '==', 5), { n: '5' })).toBe(false);
    expect(passes(compare('n', '==', double('5')), { n: 5 })).toBe(false);
    expect(passes(compare('s', '==', 'Admin'), { s: 'admin' })).toBe(false);
    expect(passes(compare('s', '==', 'admin'), { s: 'admin' })).toBe(true);
    expect(passes(compare('s', '==', double('a*b')), { s: 'a*b' })).toBe(true);
    expect(passes(compare('s', '==', double('a*b')), { s: 'axb' })).toBe(false);
  });

  it('makes != the negation of ==, so missing and null are != anything', () => {
    expect(passes(compare('n', '!=', 5), { n: 5 })).toBe(false);
    expect(passes(compare('n', '!=', 5), { n: 6 })).toBe(true);
    expect(passes(compare('n', '!=', 5), { n: null })).toBe(true);
    expect(passes(compare('n', '!=', 5), {})).toBe(true);
  });
});

describe('@index (D18)', () => {
  const row = { '@index': 'cloudtrail', '@index_id': 'id-1' };
  it('matches by id when the target has one, else by name', () => {
    expect(passes(index('cloudtrail'), row)).toBe(true);
    expect(passes(index('okta'), row)).toBe(false);
    expect(passes(index({ id: 'id-1', name: 'renamed' }), row)).toBe(true);
    expect(passes(index({ id: 'id-2', name: 'cloudtrail' }), row)).toBe(false);
    expect(passes(index('okta', { id: 'id-1' }), row)).toBe(true);
  });
});

describe('boolean logic (D19)', () => {
  it('combines with and, or, not', () => {
    const row = { a: 'x' };
    expect(passes(or(text('y'), text('x')), row)).toBe(true);
    expect(passes(and(text('y'), text('x')), row)).toBe(false);
    expect(passes(not(and(text('y'), text('x'))), row)).toBe(true);
  });
});
