import { describe, expect, it } from 'vitest';
import type { Value } from '../ast.js';
import { isTokenChar, isWildcardOnly, matchesTerm } from './matches-term.js';
import { bare, double, num, single } from './testing/ast-builder.js';

type Case = readonly [value: string | number, term: Value, expected: boolean];

function check(mode: 'contains' | 'whole', cases: readonly Case[]): void {
  for (const [value, term, expected] of cases) {
    it(`${JSON.stringify(value)} ${mode} ${term.kind === 'number' ? term.text : `${term.quote} ${JSON.stringify(term.segments)}`} → ${expected}`, () => {
      expect(matchesTerm(value, term, mode)).toBe(expected);
    });
  }
}

describe('token characters (D9)', () => {
  it('are ASCII letters, digits, _ and every non-ASCII character', () => {
    for (const c of ['a', 'Z', '0', '9', '_', 'é', '—', '😀']) expect(isTokenChar(c.codePointAt(0) ?? 0)).toBe(true);
    for (const c of ['-', '.', ' ', '/', '$', '@', '[', '*', '\u007f', '\t']) expect(isTokenChar(c.codePointAt(0) ?? 0)).toBe(false);
  });
});

describe('contains: a term without wildcards sits between token boundaries (D11)', () => {
  check('contains', [
    // the docs' examples
    ['user-admin-backup', bare('admin'), true],
    ['user_admin_backup', bare('admin'), false],
    ['a b', single('a-b'), false],
    ['x a-b y', single('a-b'), true],
    ['admin', double('dmin'), false],
    ['scnr-QueryWorker-95a7410[$LATEST]', double('QueryWorker'), true],
    ['scnr-QueryWorker-95a7410[$LATEST]', bare('Query'), false],
    ['/var/log/application/error.log', double('error'), true],
    ['192.168.1.100', double('168'), true],
    ['192.168.1.100', double('192.168.1.100'), true],
    ['192.168.1.100', double('92.168'), false],
    ['info item_id=817343 done', double('item_id=817343'), true],
    ['item_id=8173430', double('item_id=817343'), false],
    ['INFO - Item not added to cart', single('info - item not added'), true],
    ['info -  item not added', single('info - item not added'), false],
    ['user@mydomain.com', bare('mydomain'), true],
    // a term that starts or ends with a separator is anchored there by the separator itself
    ['a-x', single('-x'), true],
    ['a-xy', single('-x'), false],
    ['ax-', single('x-'), false],
    ['x.exe -clsid {abc}', single(' -clsid '), true],
    ['x.exe-clsid {abc}', single(' -clsid '), false],
    ['-clsid ', single(' -clsid '), false],
  ]);
});

describe('contains: wildcards (D12)', () => {
  check('contains', [
    ['app-3', bare('app-*'), true],
    ['x app-', bare('app-*'), true],
    ['myapp-3', bare('app-*'), false],
    ['app', bare('app-*'), false],
    ['andrew johnson', bare('*son'), true],
    ['jackson.', bare('*son'), true],
    ['sonny', bare('*son'), false],
    ['bob@protonmail.com', bare('*@protonmail.com'), true],
    ['bob@protonmail.community', bare('*@protonmail.com'), false],
    ['Andrew Johnson', single('andrew j*son'), true],
    ['andrew jackson', single('andrew j*son'), true],
    ['andrew j son', single('andrew j*son'), true],
    ['mandrew jackson', single('andrew j*son'), false],
    ['foo-bar-baz', bare('foo*baz'), true],
    ['xfoo-baz', bare('foo*baz'), false],
    ['This sentence contains an actual asterisk: *', double('This sentence contains an actual asterisk: \\*'), true],
    ['This sentence contains an actual asterisk: x', double('This sentence contains an actual asterisk: \\*'), false],
    ['anything at all', bare('*'), true],
    ['', bare('*'), true],
  ]);
});

describe('letter case (D10)', () => {
  check('contains', [
    ['INFO Successfully', bare('successfully'), true],
    ['INFO Successfully', single('SUCCESSFULLY'), true],
    ['INFO Successfully', double('successfully'), false],
    ['INFO Successfully', double('Successfully'), true],
    // only A-Z fold: non-ASCII letters compare exactly, whatever Unicode lower-casing would do
    ['CAFé', bare('café'), true],
    ['CAFÉ', bare('café'), false],
    ['STRASSE', bare('straße'), false],
    ['İ', bare('i'), false],
    ['\u212a', bare('k'), false], // the Kelvin sign, which toLowerCase folds to k
  ]);
});

describe('non-ASCII and astral characters are token characters', () => {
  check('contains', [
    ['éadmin', bare('admin'), false],
    ['admin—x', bare('admin'), false],
    ['admin x', bare('admin'), true],
    ['a😀b', bare('😀'), false],
    ['a 😀 b', bare('😀'), true],
    ['x 𝒜𝒷 y', double('𝒜𝒷'), true],
    ['x 𝒜𝒷c y', double('𝒜𝒷'), false],
  ]);
  check('whole', [
    ['a😀b', bare('a*b'), true],
    ['😀', bare('😀'), true],
  ]);
});

describe('the empty term matches only the empty value', () => {
  check('contains', [
    ['', single(''), true],
    ['x', single(''), false],
    [' ', single(''), false],
  ]);
  check('whole', [
    ['', single(''), true],
    ['x', single(''), false],
  ]);
});

describe('whole value (=)', () => {
  check('whole', [
    ['admin', bare('Admin'), true],
    ['admin', double('Admin'), false],
    ['user-admin', bare('admin'), false],
    ['app-3', bare('app-*'), true],
    ['myapp-3', bare('app-*'), false],
    ['aws:cloudtrail', double('aws:cloudtrail'), true],
    ['', bare('*'), true],
    ['ab', bare('a*'), true],
    ['a*b', double('a\\*b'), true],
    ['axb', double('a\\*b'), false],
  ]);
});

describe('number terms (D8, D14)', () => {
  check('whole', [
    [200, num('200.0'), true],
    ['200', num('200.0'), false],
    ['200', num('200'), true],
    [200, num('200'), true],
    [1e21, num('1e21'), true],
    [1e21, double('1e21'), true],
    [-5, num('-5'), true],
    [5, num('-5'), false],
  ]);
  check('contains', [
    ['err 42', num('42'), true],
    ['E42', num('42'), false],
    [200, num('200.0'), true],
    [1.5, num('5'), true], // the text 1.5 holds the token 5
    [15, num('5'), false],
    ['1E5', num('1e5'), true], // a number is a bare term: ASCII case is ignored
  ]);
});

describe('isWildcardOnly', () => {
  it('holds for terms made only of wildcards', () => {
    expect(isWildcardOnly(bare('*'))).toBe(true);
    expect(isWildcardOnly(bare('**'))).toBe(true);
    expect(isWildcardOnly(single(''))).toBe(false);
    expect(isWildcardOnly(bare('a*'))).toBe(false);
    expect(isWildcardOnly(double('\\*'))).toBe(false);
    expect(isWildcardOnly(num('1'))).toBe(false);
  });
});
