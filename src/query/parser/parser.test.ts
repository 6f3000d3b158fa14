import { describe, expect, it } from 'vitest';
import { ErrorCodes, QuerySyntaxError } from '../../core/index.js';
import { formatDiagnostic } from '../format-diagnostic.js';
import { parseQuery, parseQueryOrThrow, parseScalar } from './parser.js';
import { stripSpans } from '../strip-spans.js';

describe('parseQueryOrThrow', () => {
  it('returns the tree of a valid query', () => {
    expect(parseQueryOrThrow('a: b | count').pipeline).toHaveLength(1);
  });

  it('throws a QuerySyntaxError naming the first problem and its position, holding all of them', () => {
    let error: unknown;
    try {
      parseQueryOrThrow('eventName: | count | bogus');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(QuerySyntaxError);
    const syntaxError = error as QuerySyntaxError;
    expect(syntaxError.code).toBe(ErrorCodes.querySyntax);
    expect(syntaxError.message).toBe("expected a value after ':' at 1:12");
    expect(syntaxError.span?.start).toEqual({ line: 1, column: 12, offset: 11 });
    expect(syntaxError.diagnostics.map((d) => d.message)).toEqual(["expected a value after ':'", "unknown command 'bogus'"]);
  });
});

describe('parseQuery', () => {
  it('returns no tree exactly when there is an error, and every error has a code and a span', () => {
    for (const text of ['a', 'a:', '(', ')', '| count', 'x | head 0', "'", '`', 'a: (b', '@index={']) {
      const { query, diagnostics } = parseQuery(text);
      expect(query === null, text).toBe(diagnostics.length > 0);
      for (const d of diagnostics) {
        expect(d.code).toBe(ErrorCodes.querySyntax);
        expect(d.severity).toBe('error');
        expect(d.span, text).toBeDefined();
      }
    }
  });

  it('points at lines and columns across lines, 1-based, with 0-based offsets', () => {
    const { diagnostics } = parseQuery('a: b\n| stats\n  count() as n\n  by x\n| sort n');
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.span).toEqual({ start: { line: 5, column: 3, offset: 37 }, end: { line: 5, column: 7, offset: 41 } });
  });

  it('gives the query the span of the whole text and each term its own', () => {
    const query = parseQueryOrThrow('  a  b # c');
    expect(query.span.start.offset).toBe(0);
    expect(query.span.end.offset).toBe(10);
    expect(query.filter.kind === 'and' && query.filter.operands.map((o) => [o.span.start.offset, o.span.end.offset])).toEqual([
      [2, 3],
      [5, 6],
    ]);
  });

  it('keeps aliases as written (the analyzer resolves them, D1)', () => {
    const query = parseQueryOrThrow('@scnr.source_type: x %ingest.source_type: y');
    expect(query.filter.kind === 'and' && query.filter.operands.map((o) => o.kind === 'match' && o.column.parts)).toEqual([
      [{ kind: 'text', text: '@scnr.source_type' }],
      [{ kind: 'text', text: '%ingest.source_type' }],
    ]);
  });
});

describe('parseScalar', () => {
  it('parses a standalone expression', () => {
    expect(stripSpans(parseScalar('len(name) > 3').expr)).toEqual({
      kind: 'binary',
      op: '>',
      left: { kind: 'scalarCall', name: 'len', args: [{ kind: 'columnRef', column: { kind: 'column', quote: 'bare', parts: [{ kind: 'text', text: 'name' }] } }] },
      right: { kind: 'literal', value: 3, text: '3' },
    });
  });

  it('reports a pipe as unexpected: an expression has no pipeline', () => {
    expect(parseScalar('a | b').diagnostics.map((d) => d.message)).toEqual(["unexpected '|' in the expression"]);
  });
});

describe('formatDiagnostic', () => {
  it('renders the message, the line, carets under the span and the hint', () => {
    const text = 'a: b\n\tx != 5';
    const [d] = parseQuery(text).diagnostics;
    if (!d) throw new Error('expected a diagnostic');
    expect(formatDiagnostic(text, d)).toBe(["'!=' is not a filter operator at 2:4", '  \tx != 5', '  \t  ^^', "hint: write 'not col = v' ('!=' works only in where)"].join('\n'));
  });

  it('puts one caret under an empty span and stops carets at the end of the line', () => {
    expect(formatDiagnostic('a:', parseQuery('a:').diagnostics[0] ?? { severity: 'error', code: 'x', message: 'none' })).toContain('\n    ^\n');
    const d = { severity: 'error' as const, code: 'c', message: 'm', span: { start: { line: 1, column: 2, offset: 1 }, end: { line: 2, column: 2, offset: 5 } } };
    expect(formatDiagnostic('abc\nde', d)).toBe('m at 1:2\n  abc\n   ^^');
  });

  it('renders a diagnostic without a span as its message', () => {
    expect(formatDiagnostic('', { severity: 'error', code: 'c', message: 'no place' })).toBe('no place');
  });
});

describe('stripSpans', () => {
  it('drops span fields at every depth and keeps everything else', () => {
    const span = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 2, offset: 1 } };
    expect(stripSpans({ kind: 'x', span, list: [{ span, n: 1 }, null], nested: { span, s: 'a' } })).toEqual({ kind: 'x', list: [{ n: 1 }, null], nested: { s: 'a' } });
  });
});
