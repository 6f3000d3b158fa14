/**
 * A small strict JSON parser that keeps every digit: an integer token beyond 2^53 (no fraction,
 * no exponent, not a safe integer) comes back as its exact digit string, as query-language D3
 * requires. Everything else matches `JSON.parse`. It also explains failures with a column, which
 * `JSON.parse`'s engine-specific messages do not, so it is the error path for every reader.
 */

export type JsonParseResult =
  | { readonly ok: true; readonly value: unknown }
  | {
      readonly ok: false;
      /** What is wrong, without a position: `unexpected token "}"`, `unterminated string`. */
      readonly problem: string;
      /** 0-based offset (UTF-16 units) of the culprit: the token, or where a string began. */
      readonly offset: number;
      /** True when the text ended before the value did (a value cut short, not a wrong one). */
      readonly atEnd: boolean;
    };

export type JsonSequenceResult = { readonly ok: true; readonly values: unknown[] } | Extract<JsonParseResult, { ok: false }>;

/** Parses one JSON text losslessly; never throws. */
export function parseJsonLossless(text: string): JsonParseResult {
  const parser = new LosslessParser(text);
  try {
    return { ok: true, value: parser.document() };
  } catch (error) {
    return failure(error, parser);
  }
}

/** Parses whitespace-separated JSON values (`jq` output, concatenated documents) losslessly. */
export function parseJsonSequence(text: string): JsonSequenceResult {
  const parser = new LosslessParser(text);
  try {
    return { ok: true, values: parser.sequence() };
  } catch (error) {
    return failure(error, parser);
  }
}

/** `unexpected token "}" at column 17`: a parse failure located within one line. */
export function describeJsonFailure(failure: Extract<JsonParseResult, { ok: false }>): string {
  return `${failure.problem} at column ${failure.offset + 1}`;
}

/** `unexpected token "}" at line 3 column 5`: a parse failure located within a document. */
export function describeJsonDocumentFailure(failure: Extract<JsonParseResult, { ok: false }>, text: string): string {
  let line = 1;
  let lineStart = 0;
  for (let nl = text.indexOf('\n'); nl >= 0 && nl < failure.offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return `${failure.problem} at line ${line} column ${failure.offset - lineStart + 1}`;
}

function failure(error: unknown, parser: LosslessParser): Extract<JsonParseResult, { ok: false }> {
  if (error instanceof JsonFault) return { ok: false, problem: error.message, offset: error.offset, atEnd: error.atEnd };
  // recursion ran out of stack: only absurdly nested input gets here
  if (error instanceof RangeError) return { ok: false, problem: 'nesting too deep', offset: parser.pos, atEnd: false };
  throw error;
}

/** Internal control flow of the parser; converted to a result before leaving this file. */
class JsonFault extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly atEnd: boolean,
  ) {
    super(message);
  }
}

const maxSafeDigits = 15; // every integer of at most 15 digits is safe; 16 or more need a check

class LosslessParser {
  pos = 0;

  constructor(private readonly s: string) {}

  document(): unknown {
    const value = this.value();
    this.skipSpace();
    if (this.pos < this.s.length) throw this.fault('unexpected data after the JSON value');
    return value;
  }

  sequence(): unknown[] {
    const values: unknown[] = [];
    this.skipSpace();
    while (this.pos < this.s.length) {
      values.push(this.value());
      this.skipSpace();
    }
    return values;
  }

  private value(): unknown {
    this.skipSpace();
    const c = this.s.charCodeAt(this.pos);
    if (c === 34) return this.string();
    if (c === 123) return this.object();
    if (c === 91) return this.array();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (c === 116) return this.literal('true', true);
    if (c === 102) return this.literal('false', false);
    if (c === 110) return this.literal('null', null);
    throw this.unexpected();
  }

  private object(): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.pos++;
    this.skipSpace();
    if (this.s.charCodeAt(this.pos) === 125) {
      this.pos++;
      return obj;
    }
    for (;;) {
      if (this.s.charCodeAt(this.pos) !== 34) throw this.unexpected();
      const key = this.string();
      this.skipSpace();
      if (this.s.charCodeAt(this.pos) !== 58) throw this.unexpected();
      this.pos++;
      const value = this.value();
      // JSON.parse defines `__proto__` as an own property; plain assignment would set the prototype
      if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
      else obj[key] = value;
      this.skipSpace();
      const c = this.s.charCodeAt(this.pos);
      this.pos++;
      if (c === 125) return obj;
      if (c !== 44) throw this.unexpected(this.pos - 1);
      this.skipSpace();
    }
  }

  private array(): unknown[] {
    const items: unknown[] = [];
    this.pos++;
    this.skipSpace();
    if (this.s.charCodeAt(this.pos) === 93) {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skipSpace();
      const c = this.s.charCodeAt(this.pos);
      this.pos++;
      if (c === 93) return items;
      if (c !== 44) throw this.unexpected(this.pos - 1);
    }
  }

  private string(): string {
    const s = this.s;
    const start = this.pos;
    let escaped = false;
    let i = start + 1;
    for (;;) {
      if (i >= s.length) throw this.unterminated(start);
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c === 92) {
        escaped = true;
        const e = s.charCodeAt(i + 1);
        if (e === 117) {
          for (let k = i + 2; k < i + 6; k++) {
            if (k >= s.length) throw this.unterminated(start);
            if (!isHex(s.charCodeAt(k))) throw this.fault('invalid \\u escape', i);
          }
          i += 6;
          continue;
        }
        if (i + 1 >= s.length) throw this.unterminated(start);
        if (!isSimpleEscape(e)) throw this.fault('invalid escape', i);
        i += 2;
        continue;
      }
      if (c < 32) throw this.fault('control character in string', i);
      i++;
    }
    this.pos = i + 1;
    // the token is valid JSON now, so the engine's own unescaping is both exact and fast
    return escaped ? (JSON.parse(s.slice(start, i + 1)) as string) : s.slice(start + 1, i);
  }

  private number(): number | string {
    const s = this.s;
    const start = this.pos;
    let i = start;
    if (s.charCodeAt(i) === 45) i++;
    const intStart = i;
    const first = s.charCodeAt(i);
    if (first === 48) i++;
    else if (first >= 49 && first <= 57) while (isDigit(s.charCodeAt(i))) i++;
    else throw this.unexpected(i);
    const intDigits = i - intStart;
    let integer = true;
    if (s.charCodeAt(i) === 46) {
      integer = false;
      i++;
      if (!isDigit(s.charCodeAt(i))) throw this.unexpected(i);
      while (isDigit(s.charCodeAt(i))) i++;
    }
    const e = s.charCodeAt(i);
    if (e === 101 || e === 69) {
      integer = false;
      i++;
      const sign = s.charCodeAt(i);
      if (sign === 43 || sign === 45) i++;
      if (!isDigit(s.charCodeAt(i))) throw this.unexpected(i);
      while (isDigit(s.charCodeAt(i))) i++;
    }
    this.pos = i;
    const token = s.slice(start, i);
    const value = Number(token);
    if (integer && intDigits > maxSafeDigits && !Number.isSafeInteger(value)) return token;
    return value;
  }

  private literal<T>(word: string, value: T): T {
    for (let k = 0; k < word.length; k++) {
      if (this.s.charCodeAt(this.pos + k) !== word.charCodeAt(k)) throw this.unexpected(this.pos + k);
    }
    this.pos += word.length;
    return value;
  }

  private skipSpace(): void {
    const s = this.s;
    let i = this.pos;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) break;
      i++;
    }
    this.pos = i;
  }

  private unexpected(at = this.pos): JsonFault {
    if (at >= this.s.length) return this.fault('unexpected end of input', this.s.length, true);
    return this.fault(`unexpected token ${JSON.stringify(this.s.charAt(at))}`, at);
  }

  private unterminated(start: number): JsonFault {
    return new JsonFault('unterminated string', start, true);
  }

  private fault(message: string, at = this.pos, atEnd = false): JsonFault {
    return new JsonFault(message, at, atEnd);
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}

function isSimpleEscape(c: number): boolean {
  // " \ / b f n r t
  return c === 34 || c === 92 || c === 47 || c === 98 || c === 102 || c === 110 || c === 114 || c === 116;
}
