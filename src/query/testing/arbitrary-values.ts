/**
 * fast-check generators for the leaves of the syntax tree: values, numbers, column names. They
 * produce canonical trees only (what the parser would build from the printed text), so
 * `parse(print(tree))` can be compared with `tree`.
 */
import fc from 'fast-check';
import type { ColumnName, NamePart, NumberValue, StringValue, Value } from '../ast.js';
import { canPrintBareName, canPrintBareValue, type NameContext } from '../print-literal.js';
import type { Span } from '../../core/index.js';

/** Spans are meaningless in generated trees; compare them with `stripSpans`. */
export const noSpan: Span = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

export interface VocabularyOptions {
  /** Column names to pick from (plain names: no wildcards, any characters). */
  readonly columns: readonly string[];
  /** Texts for terms and string literals (any characters; a `*` in them is literal). */
  readonly terms: readonly string[];
  /**
   * Numbers for number values and literals: finite numbers (-0 is left out, it prints as 0), or
   * literal texts (D8) such as integers beyond 2^53, whose digits no double holds.
   */
  readonly numbers: readonly (number | string)[];
  /** Whether filters may use wildcards in values (`app-*`) and column names (`tags[*]`, `**`). */
  readonly wildcards: boolean;
}

export const defaultVocabulary: VocabularyOptions = {
  columns: ['a', 'b', 'status', 'user.name', 'tags[0]', 'kubernetes.pod_name', '@q.count', 'user name', 'by', 'count', 'Max'],
  terms: ['admin', 'Error', 'app-3', 'info - item', 'user@example.com', 'C:\\Windows', "it's", 'a*b', 'ümlaut', 'and', '', '42x'],
  numbers: [0, 1, 5, 42, -3, 2.5, 99.9, 1e21, 1e-7, 10000],
  wildcards: true,
};

/** A number literal for a number, or for a literal text (kept as written, as the parser keeps it). */
export function numberValue(n: number | string): NumberValue {
  const text = String(n);
  return { kind: 'number', text, value: Number(text), span: noSpan };
}

export function arbitraryNumber(vocabulary: VocabularyOptions): fc.Arbitrary<NumberValue> {
  const numbers = vocabulary.numbers.filter((n) => typeof n === 'string' || (Number.isFinite(n) && !Object.is(n, -0)));
  return fc.constantFrom(...(numbers.length > 0 ? numbers : [1])).map(numberValue);
}

/** Term texts split at wildcards: `admin`, `admin*`, `*admin`, `*admin*`, `ad*min`. */
function arbitrarySegments(vocabulary: VocabularyOptions, wildcards: boolean): fc.Arbitrary<readonly string[]> {
  const term = fc.constantFrom(...(vocabulary.terms.length > 0 ? vocabulary.terms : ['x']));
  if (!wildcards) return term.map((t) => [t]);
  return fc.tuple(term, fc.nat(4), fc.nat(64)).map(([t, shape, cut]): readonly string[] => {
    switch (shape) {
      case 1:
        return [t, ''];
      case 2:
        return ['', t];
      case 3:
        return ['', t, ''];
      case 4: {
        const at = t.length === 0 ? 0 : cut % t.length;
        return [t.slice(0, at), t.slice(at)];
      }
      default:
        return [t];
    }
  });
}

/** A string value quoted any way that reads back the same; `bare` only when it can be. */
export function arbitraryString(vocabulary: VocabularyOptions, wildcards = vocabulary.wildcards): fc.Arbitrary<StringValue> {
  return fc.tuple(arbitrarySegments(vocabulary, wildcards), fc.constantFrom('bare', 'single', 'double') as fc.Arbitrary<'bare' | 'single' | 'double'>).map(([segments, wanted]) => {
    const quote = wanted === 'bare' && !canPrintBareValue(segments) ? 'single' : wanted;
    return { kind: 'string', quote, segments, span: noSpan };
  });
}

export function arbitraryValue(vocabulary: VocabularyOptions, wildcards = vocabulary.wildcards): fc.Arbitrary<Value> {
  return fc.oneof({ arbitrary: arbitraryString(vocabulary, wildcards), weight: 3 }, { arbitrary: arbitraryNumber(vocabulary), weight: 1 });
}

/**
 * A column name from the vocabulary, bare when it can be in `context` (and sometimes in
 * backticks anyway). With `wildcards`, some names become `prefix*`, `*suffix` or `**`.
 * `avoid` lists names that must not be bare here (`@index` in the main filter selects indexes).
 */
export function arbitraryColumnName(
  vocabulary: VocabularyOptions,
  context: NameContext,
  options: { readonly wildcards?: boolean; readonly avoid?: readonly string[] } = {},
): fc.Arbitrary<ColumnName> {
  const name = fc.constantFrom(...(vocabulary.columns.length > 0 ? vocabulary.columns : ['a']));
  const parts = options.wildcards
    ? fc.tuple(name, fc.nat(5)).map(([n, shape]) => wildcardParts(n, shape))
    : name.map((n): NamePart[] => (n === '' ? [{ kind: 'text', text: 'x' }] : [{ kind: 'text', text: n }]));
  return fc.tuple(parts, fc.boolean()).map(([p, preferBackticks]) => {
    const plain = p.length === 1 && p[0]?.kind === 'text' ? p[0].text : null;
    const bare = !preferBackticks && canPrintBareName(p, context) && !(plain !== null && options.avoid?.includes(plain));
    return { kind: 'column', quote: bare ? 'bare' : 'backtick', parts: p, span: noSpan };
  });
}

function wildcardParts(name: string, shape: number): NamePart[] {
  const text = name === '' ? 'x' : name;
  const dot = text.lastIndexOf('.');
  switch (shape) {
    case 0:
      return [{ kind: 'globstar' }];
    case 1:
      return dot > 0 ? [{ kind: 'text', text: text.slice(0, dot + 1) }, { kind: 'star' }] : [{ kind: 'text', text }, { kind: 'star' }];
    case 2:
      return [{ kind: 'star' }, { kind: 'text', text }];
    case 3:
      return [{ kind: 'text', text }, { kind: 'globstar' }];
    default:
      return [{ kind: 'text', text }];
  }
}
