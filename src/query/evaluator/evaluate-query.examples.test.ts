// The examples of docs/query-language.md and of the spec's section 7, written as query text and
// run end to end through the parser. Semantics are tested rule by rule in the other files.
import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow } from '../parser/parser.js';
import type { EvalEvent, EvalTable } from './eval-table.js';
import { evaluateQuery } from './evaluate-query.js';
import { event, events } from './testing/event-builder.js';

const run = (text: string, list: EvalEvent[]): EvalTable => evaluateQuery(parseQueryOrThrow(text), list);
const hits = (text: string, values: Array<string | number | null>, column = 'message'): boolean[] => values.map((v) => run(text, [event({ [column]: v })]).rows.length === 1);

describe('the docs examples of term matching', () => {
  it.each<[string, Array<string | number | null>, boolean[]]>([
    ['admin', ['user-admin-backup', 'user_admin_backup', 'ADMIN'], [true, false, true]],
    ["'a-b'", ['a b', 'x A-B y'], [false, true]],
    ['"dmin"', ['admin', 'a dmin'], [false, true]],
    ['app-*', ['app-3', 'myapp-3', 'App-x'], [true, false, true]],
    ['*son', ['andrew johnson', 'sonny'], [true, false]],
    ["' -clsid '", ['x.exe -clsid {1}', 'x.exe-clsid {1}'], [true, false]],
    ['message: "168"', ['192.168.1.100', '1168.2'], [true, false]],
    ['message = 200.0', [200, '200', '200.0'], [true, false, true]],
    ['message: 42', ['err 42', 'E42', 42], [true, false, true]],
    ["''", ['', ' '], [true, false]],
    ['*', ['', null], [true, true]],
    ['"This sentence contains an actual asterisk: \\*"', ['This sentence contains an actual asterisk: *', 'This sentence contains an actual asterisk: x'], [true, false]],
    ['café', ['CAFé', 'CAFÉ'], [true, false]],
    ['"😀"', ['a 😀 b', 'a😀b'], [true, false]],
  ])('%s', (text, values, expected) => {
    expect(hits(text, values)).toEqual(expected);
  });
});

describe('spec section 7 examples', () => {
  it('1-4: terms in any order and case, implicit or explicit and', () => {
    const list = events({ message: 'INFO Successfully added item' }, { message: 'info added' });
    for (const text of ['info successfully added', 'INFO Successfully added', 'info added successfully', 'added and info and successfully']) {
      expect(run(text, list).rows.map((r) => r['message'])).toEqual(['INFO Successfully added item']);
    }
  });

  it('14, 19: the exists form', () => {
    expect(run('errorCode: *', events({ errorCode: null }, { other: 1 })).rows).toHaveLength(1);
  });

  it('20: @index limits the search', () => {
    const list = [event({ errorCode: 'x' }, { indexName: 'cloudtrail' }), event({ errorCode: 'x' }, { seq: 1n })];
    expect(run('@index=cloudtrail errorCode: *', list).rows.map((r) => r['@index'])).toEqual(['cloudtrail']);
  });

  it('23: groupbycount after an aliased source type filter', () => {
    const list = [
      event({ eventSource: 's3' }, { seq: 0n, sourceType: 'aws:cloudtrail' }),
      event({ eventSource: 'iam' }, { seq: 1n, sourceType: 'aws:cloudtrail' }),
      event({ eventSource: 's3' }, { seq: 2n, sourceType: 'aws:cloudtrail' }),
      event({ eventSource: 's3' }, { seq: 3n, sourceType: 'okta' }),
    ];
    expect(run('%ingest.source_type: "aws:cloudtrail" | groupbycount(eventSource)', list)).toEqual({
      columns: ['eventSource', '@q.count'],
      rows: [
        { eventSource: 's3', '@q.count': 2 },
        { eventSource: 'iam', '@q.count': 1 },
      ],
    });
  });

  it('25: head after a numeric comparison keeps the 10 oldest', () => {
    const list = events(...Array.from({ length: 15 }, (_, i) => ({ status_code: i % 2 === 0 ? 500 : '200' })));
    const rows = run('status_code >= 400 | head', list).rows;
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => r['status_code'] === 500)).toBe(true);
  });

  it('28: percentile(50) is the median value as it occurs', () => {
    expect(run('* | percentile(50, elapsed_ms)', events({ elapsed_ms: 30 }, { elapsed_ms: 10 }, { elapsed_ms: '20' })).rows).toEqual([{ '@q.value': 20 }]);
  });

  it('33: stats with an alias and a default name', () => {
    const list = events({ hostname: 'h', elapsed_ms: 3, timestamp: 'b' }, { hostname: 'h', elapsed_ms: 9, timestamp: 'a' });
    expect(run('* | stats max(elapsed_ms) as elapsed_ms, max(timestamp) by hostname', list)).toEqual({
      columns: ['hostname', '@q.count', 'elapsed_ms', 'max(timestamp)'],
      rows: [{ hostname: 'h', '@q.count': 2, elapsed_ms: 9, 'max(timestamp)': 'b' }],
    });
  });

  it('55-57: count and a threshold', () => {
    const list = events({ eventName: 'CloseAccount' }, { eventName: 'Other' });
    expect(run('* | count', list).rows).toEqual([{ '@q.count': 2 }]);
    expect(run('eventName: "CloseAccount" | count | where @q.count > 0', list)).toEqual({ columns: ['@q.count'], rows: [{ '@q.count': 1 }] });
    expect(run('eventName: "CloseAccount" | count | where @q.count > 1', list).rows).toEqual([]);
  });

  it('60: ** searches every column at every depth', () => {
    const list = events({ 'a[0].b.ip': '23.27.124.45' }, { ip: '23.27.124.450' });
    expect(run('**: "23.27.124.45"', list).rows).toHaveLength(1);
  });

  it('62: table(@index, @index_id) after head 1', () => {
    expect(run('* | head 1 | table(@index, @index_id)', events({}, {}))).toEqual({
      columns: ['@index', '@index_id'],
      rows: [{ '@index': 'main', '@index_id': '00000000-0000-4000-8000-000000000001' }],
    });
  });

  it('69: a correlation over the detections index', () => {
    const detection = (seq: bigint, name: string, arn: string, tag: string): EvalEvent =>
      event({ name, 'tags[0]': 'x', 'tags[1]': tag, 'results_table.rows[0].userIdentity.arn': arn }, { seq, indexName: '_detections', indexId: 'det', systemIndex: true });
    const list = [
      detection(0n, 'r1', 'alice', 'correlation.cloud_credential_theft'),
      detection(1n, 'r2', 'alice', 'correlation.cloud_credential_theft'),
      detection(2n, 'r1', 'alice', 'correlation.cloud_credential_theft'),
      detection(3n, 'r1', 'bob', 'correlation.cloud_credential_theft'),
      detection(4n, 'r3', 'bob', 'other'),
    ];
    const q =
      '@index={det|"_detections"} tags[*]:correlation.cloud_credential_theft | stats countdistinct(name) as rule_count by results_table.rows[0].userIdentity.arn | where rule_count >= 2';
    expect(run(q, list).rows).toEqual([{ 'results_table.rows[0].userIdentity.arn': 'alice', '@q.count': 3, rule_count: 2 }]);
    expect(run('tags[*]:correlation.cloud_credential_theft', list).rows).toEqual([]);
  });

  it('70: eval with coalesce then stats by the new column', () => {
    const list = events({ a: 'x', name: 'r1' }, { b: 'x', name: 'r2' }, { b: 'y', name: 'r1' });
    expect(run('* | eval entity = coalesce(a, b) | stats countdistinct(name) as n by entity', list).rows).toEqual([
      { entity: 'x', '@q.count': 2, n: 2 },
      { entity: 'y', '@q.count': 1, n: 1 },
    ]);
  });

  it('71: a token match on a dotted value under not', () => {
    const list = events({ userAgent: 'cloudformation.amazonaws.com' }, { userAgent: 'aws-cli/2.0' });
    expect(run('not userAgent: ".amazonaws.com"', list).rows.map((r) => r['userAgent'])).toEqual(['aws-cli/2.0']);
  });
});
