import fc from 'fast-check';
import { scalarFunctions, type Scalar, type ScalarBinaryOperator } from '../ast.js';
import { arbitraryColumnName, arbitraryNumber, noSpan, type VocabularyOptions } from './arbitrary-values.js';

const binaryOperators: readonly ScalarBinaryOperator[] = ['+', '-', '*', '/', '==', '!=', '<', '<=', '>', '>=', 'and', 'or'];

/** Scalar expressions (6.3, D26) over the vocabulary, nested at most `maxDepth` deep. */
export function scalarArbitrary(vocabulary: VocabularyOptions, maxDepth: number): fc.Arbitrary<Scalar> {
  const leaf: fc.Arbitrary<Scalar> = fc.oneof(
    arbitraryNumber(vocabulary).map((n): Scalar => ({ kind: 'literal', value: n.value, text: n.text, span: noSpan })),
    fc.constantFrom(...vocabulary.terms, 'x').map((t): Scalar => ({ kind: 'literal', value: t, text: null, span: noSpan })),
    fc.constantFrom(true, false, null).map((v): Scalar => ({ kind: 'literal', value: v, text: null, span: noSpan })),
    arbitraryColumnName(vocabulary, 'scalar').map((column): Scalar => ({ kind: 'columnRef', column, span: noSpan })),
  );
  const levels: fc.Arbitrary<Scalar>[] = [leaf];
  for (let depth = 1; depth <= maxDepth; depth++) {
    const sub = levels[depth - 1] ?? leaf;
    const functions = Object.entries(scalarFunctions);
    levels.push(
      fc.oneof(
        { arbitrary: leaf, weight: 2 },
        {
          arbitrary: fc.tuple(fc.constantFrom<'-' | 'not'>('-', 'not'), sub).map(([op, operand]): Scalar => ({ kind: 'unary', op, operand, span: noSpan })),
          weight: 1,
        },
        {
          arbitrary: fc.tuple(fc.constantFrom(...binaryOperators), sub, sub).map(([op, left, right]): Scalar => ({ kind: 'binary', op, left, right, span: noSpan })),
          weight: 3,
        },
        {
          arbitrary: fc
            .constantFrom(...functions)
            .chain(([name, arity]) =>
              fc.array(sub, { minLength: arity.min, maxLength: arity.max ?? arity.min + 2 }).map((args): Scalar => ({ kind: 'scalarCall', name, args, span: noSpan })),
            ),
          weight: 1,
        },
      ),
    );
  }
  return levels[maxDepth] ?? leaf;
}
