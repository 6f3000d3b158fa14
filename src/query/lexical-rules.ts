/**
 * Which characters may go where (sections 2.1, 2.5, 6.3 and D5-D8). The lexer reads with these
 * rules and the printer uses the same ones to decide whether text can be printed bare.
 */

/** Characters that end a bare string (2.1); whitespace and control characters end it too. */
const bareForbidden = new Set([':', '(', ')', '"', "'", '<', '>', '=', '|', ',', '~', '{', '}', '!', '#', '`']);

const whitespace = /\s/u;
const letter = /\p{L}/u;

export function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || (ch > '\x7f' && whitespace.test(ch));
}

export function isControl(ch: string): boolean {
  const code = ch.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
}

export function isLetter(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch > '\x7f' && letter.test(ch));
}

export function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

/** May `ch` appear inside a bare string or bare column name of a filter? */
export function isBareChar(ch: string): boolean {
  return !bareForbidden.has(ch) && !isSpace(ch) && !isControl(ch);
}

/** May a bare string start with `ch`? A letter or one of `* @ % _` (2.1); `\*` counts as `*`. */
export function isBareStart(ch: string): boolean {
  return isLetter(ch) || ch === '*' || ch === '@' || ch === '%' || ch === '_';
}

/** May `ch` continue a bare name in a scalar expression? Letters, digits and `._*[]@%` (6.3). */
export function isScalarNameChar(ch: string): boolean {
  return isLetter(ch) || isDigit(ch) || ch === '.' || ch === '_' || ch === '*' || ch === '[' || ch === ']' || ch === '@' || ch === '%';
}

/** May a bare name in a scalar expression start with `ch`? A letter or one of `$ @ % * _` (6.3). */
export function isScalarNameStart(ch: string): boolean {
  return isLetter(ch) || ch === '$' || ch === '@' || ch === '%' || ch === '*' || ch === '_';
}

/** In scalar names `@` and `%` may appear only at the start or straight after a `.` (6.3). */
export function hasValidScalarNameMarks(name: string): boolean {
  for (let i = 1; i < name.length; i++) {
    const ch = name[i];
    if ((ch === '@' || ch === '%') && name[i - 1] !== '.') return false;
  }
  return true;
}

/** A number literal (D8): `-?digits[.digits][e[+-]digits]`, ASCII digits, lower-case `e`. */
export const numberPattern = /-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?/y;
/** In scalar expressions a leading `-` is the unary operator, so the literal is unsigned. */
export const unsignedNumberPattern = /[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?/y;

export function isNumberText(text: string): boolean {
  return /^-?[0-9]+(?:\.[0-9]+)?(?:e[+-]?[0-9]+)?$/.test(text);
}

/** `and`, `or`, `not` in any letter case are reserved everywhere (D7). */
export function isBooleanKeywordText(text: string): boolean {
  const lower = text.toLowerCase();
  return lower === 'and' || lower === 'or' || lower === 'not';
}

/** Words that are keywords inside pipeline commands (D7), in any letter case. */
export function isPipelineKeywordText(text: string): boolean {
  const lower = text.toLowerCase();
  return isBooleanKeywordText(text) || lower === 'by' || lower === 'as';
}

/** Words that are literals in scalar expressions (D7), in any letter case. */
export function isScalarLiteralText(text: string): boolean {
  const lower = text.toLowerCase();
  return lower === 'true' || lower === 'false' || lower === 'null';
}
