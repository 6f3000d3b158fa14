import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Span } from '../core/index.js';
import type { Filter, Query, Scalar } from './ast.js';
import { parseQuery, parseScalar } from './parser/parser.js';
import { printAggregationCall, printColumnName, printQuery, printScalar } from './printer.js';
import { stripSpans } from './strip-spans.js';
import { arbitraryQuery, arbitraryScalar } from './testing/arbitrary-query.js';

function reparse(text: string): Query {
  const result = parseQuery(text);
  expect(result.diagnostics, text).toEqual([]);
  if (!result.query) throw new Error(`no query for ${text}`);
  return result.query;
}

/** Every object with a span under `node`, with the span of its nearest spanned ancestor. */
function spannedNodes(node: unknown, parent: Span | null = null, out: { span: Span; parent: Span | null }[] = []): typeof out {
  if (Array.isArray(node)) {
    for (const child of node) spannedNodes(child, parent, out);
  } else if (node !== null && typeof node === 'object') {
    const span = (node as { span?: Span }).span;
    if (span) out.push({ span, parent });
    for (const [key, child] of Object.entries(node)) if (key !== 'span') spannedNodes(child, span ?? parent, out);
  }
  return out;
}

describe('printQuery', () => {
  it('prints what parses back to the same tree, for any tree', () => {
    fc.assert(
      fc.property(arbitraryQuery({ indexes: ['cloudtrail', 'global-cloudtrail', 'my index'] }), (query) => {
        const text = printQuery(query);
        expect(stripSpans(reparse(text)), text).toEqual(stripSpans(query));
      }),
      { numRuns: 2000 },
    );
  });

  it('prints lookup commands that parse back to the same tree, whatever their table, key, field and outputs are called', () => {
    const lookupTables = [
      { name: 'bad_ips', columns: ['indicator', 'output', 'as', 'a b'] },
      { name: 'my table', columns: ['x', 'y'] },
      { name: '2fa-users', columns: ['user'] },
    ];
    fc.assert(
      fc.property(arbitraryQuery({ pipeline: ['lookup', 'eval', 'where'], lookupTables, columns: ['ip', 'output', 'as', 'user', '@scanner.x'] }), (query) => {
        const text = printQuery(query);
        expect(stripSpans(reparse(text)), text).toEqual(stripSpans(query));
      }),
      { numRuns: 1000 },
    );
  });

  it('is idempotent: printing a parsed canonical text gives the same text', () => {
    fc.assert(
      fc.property(arbitraryQuery(), (query) => {
        const text = printQuery(query);
        expect(printQuery(reparse(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('gives every node a span inside the text and inside its parent', () => {
    fc.assert(
      fc.property(arbitraryQuery({ indexes: ['cloudtrail'] }), (query) => {
        const text = printQuery(query);
        for (const { span, parent } of spannedNodes(reparse(text))) {
          expect(span.start.offset).toBeLessThanOrEqual(span.end.offset);
          expect(span.end.offset).toBeLessThanOrEqual(text.length);
          if (parent) {
            expect(span.start.offset).toBeGreaterThanOrEqual(parent.start.offset);
            expect(span.end.offset).toBeLessThanOrEqual(parent.end.offset);
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives filters and expressions spans whose text parses back to the same node', () => {
    const filters = (f: Filter): Filter[] => (f.kind === 'and' || f.kind === 'or' ? [f, ...f.operands.flatMap(filters)] : f.kind === 'not' ? [f, ...filters(f.operand)] : [f]);
    const scalars = (e: Scalar): Scalar[] =>
      e.kind === 'binary'
        ? [e, ...scalars(e.left), ...scalars(e.right)]
        : e.kind === 'unary'
          ? [e, ...scalars(e.operand)]
          : e.kind === 'scalarCall'
            ? [e, ...e.args.flatMap(scalars)]
            : [e];
    const slice = (text: string, span: Span): string => text.slice(span.start.offset, span.end.offset);
    fc.assert(
      fc.property(arbitraryQuery({ indexes: ['cloudtrail'], pipeline: ['eval'] }), (query) => {
        const text = printQuery(query);
        const parsed = reparse(text);
        for (const f of filters(parsed.filter)) {
          if (f.span.start.offset === f.span.end.offset) continue; // the implicit match-all filter
          expect(stripSpans(reparse(slice(text, f.span)).filter), slice(text, f.span)).toEqual(stripSpans(f));
        }
        for (const command of parsed.pipeline) {
          if (command.kind !== 'eval') continue;
          for (const e of command.assignments.flatMap((a) => scalars(a.expr))) {
            expect(stripSpans(parseScalar(slice(text, e.span)).expr), slice(text, e.span)).toEqual(stripSpans(e));
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('prints canonical text: explicit operators, minimal parentheses, one spacing style', () => {
    const canonical = (text: string): string => printQuery(reparse(text));
    expect(canonical('a  b   OR c')).toBe('a and b or c');
    expect(canonical('(a or b) c')).toBe('(a or b) and c');
    expect(canonical('a and (b and c)')).toBe('a and b and c');
    expect(canonical('not (a b)')).toBe('not (a and b)');
    expect(canonical('x:(a b) y=("c" and not d)')).toBe('x: (a or b) and y = ("c" and not d)');
    expect(canonical('@index=(a {0-1|"b"})')).toBe('@index=(a or {0-1 | "b"})');
    expect(canonical('| groupbycount a,b | head(5) | stats by x | tail')).toBe('* | groupbycount(a, b) | head 5 | stats by x | tail');
    expect(canonical('* | count() | countdistinct x | table a | rename(a as b)')).toBe('* | count | countdistinct(x) | table(a) | rename(a as b)');
    expect(canonical('* | eval(x = (a + 1) * 2, y=-(1))')).toBe('* | eval x = (a + 1) * 2, y = -(1)');
  });
});

describe('printScalar', () => {
  it('prints what parses back to the same expression', () => {
    fc.assert(
      fc.property(arbitraryScalar({ maxDepth: 4 }), (expr) => {
        const text = printScalar(expr);
        const result = parseScalar(text);
        expect(result.diagnostics, text).toEqual([]);
        expect(stripSpans(result.expr), text).toEqual(stripSpans(expr));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the parentheses that left-associative operators and negated numbers need', () => {
    const canonical = (text: string): string => {
      const { expr } = parseScalar(text);
      if (!expr) throw new Error(text);
      return printScalar(expr);
    };
    expect(canonical('a - (b - c)')).toBe('a - (b - c)');
    expect(canonical('(a - b) - c')).toBe('a - b - c');
    expect(canonical('- 1')).toBe('-(1)');
    expect(canonical('-1')).toBe('-1');
    expect(canonical('not (a == b)')).toBe('not (a == b)');
    expect(canonical('(not a) == b')).toBe('not a == b');
    expect(canonical('`true` or TRUE')).toBe('`true` or true');
  });
});

describe('printAggregationCall and printColumnName', () => {
  function statsCall(text: string) {
    const command = reparse(`* | stats ${text}`).pipeline[0];
    if (command?.kind !== 'stats' || command.items[0]?.kind !== 'statsAggregation') throw new Error(text);
    return command.items[0].call;
  }

  it('names stats columns the same however their arguments are quoted', () => {
    expect(printAggregationCall(statsCall('max(elapsed_ms)'))).toBe('max(elapsed_ms)');
    expect(printAggregationCall(statsCall('max(`elapsed_ms`)'))).toBe('max(elapsed_ms)');
    expect(printAggregationCall(statsCall('percentile(99.9, x)'))).toBe('percentile(99.9, x)');
    expect(printAggregationCall(statsCall('count()'))).toBe('count()');
    expect(printAggregationCall(statsCall('countdistinct(a, `user name`, `by`)'))).toBe('countdistinct(a, `user name`, `by`)');
  });

  it('prints a name bare when it can, else in backticks with escapes', () => {
    const column = (text: string) => {
      const command = reparse(`* | table(${text})`).pipeline[0];
      if (command?.kind !== 'table' || !command.columns[0]) throw new Error(text);
      return command.columns[0];
    };
    expect(printColumnName(column('results_table.rows[0].userIdentity.arn'))).toBe('results_table.rows[0].userIdentity.arn');
    expect(printColumnName(column('`@q.count`'))).toBe('@q.count');
    expect(printColumnName(column('`animal:species`'))).toBe('`animal:species`');
    expect(printColumnName(column('`a\\`b\\*`'))).toBe('`a\\`b\\*`');
    expect(printColumnName(column('`1st`'))).toBe('1st');
  });
});
