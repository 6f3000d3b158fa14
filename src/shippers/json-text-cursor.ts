/**
 * Thrown when JSON text is invalid or leaves the shape a scan reads: the caller then reads the
 * text with `JSON.parse`, which also explains what is wrong with it.
 */
export class OffShapeJson extends Error {
  constructor() {
    super('the JSON text is not in the shape this scan reads');
  }
}

const offShape = new OffShapeJson();

// Sticky patterns for one token at the cursor. Control characters are invalid inside JSON
// strings; surrogates are left to the slower patterns so that a lone one is escaped as
// JSON.stringify escapes it.
/** A string without escapes or surrogates: its text is its value's JSON.stringify text. */
const plainString = /"[^"\\\u0000-\u001f\ud800-\udfff]*"/y;
/** A string whose escapes and surrogate pairs are written as JSON.stringify writes them. */
const canonicalString = /"[^"\\\u0000-\u001f\ud800-\udfff]*(?:(?:\\["\\bfnrt]|[\ud800-\udbff][\udc00-\udfff])[^"\\\u0000-\u001f\ud800-\udfff]*)*"/y;
/** Any valid JSON string. */
const anyString = /"[^"\\\u0000-\u001f]*(?:\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})[^"\\\u0000-\u001f]*)*"/y;
const numberToken = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

/**
 * A cursor over JSON text that reads it token by token, for scans that write their output
 * while they read instead of building the parsed value first. It checks the text as it goes
 * (invalid JSON throws OffShapeJson) and reads values exactly as `parseJsonText` does: integers
 * beyond 2^53 come back as their digits.
 *
 * Objects: `if (c.beginObject()) do { switch (c.key()) { … } } while (c.nextMember());`, and
 * arrays alike with `beginArray` and `nextItem`; every member's value must be read or skipped.
 */
export class JsonTextCursor {
  pos = 0;

  constructor(private readonly text: string) {}

  /** The code of the next character that is not whitespace (the cursor moved onto it); NaN at the end. */
  peek(): number {
    const text = this.text;
    let at = this.pos;
    let code = text.charCodeAt(at);
    while (code === 32 || code === 10 || code === 13 || code === 9) code = text.charCodeAt(++at);
    this.pos = at;
    return code;
  }

  /** Enters the object at the cursor; false when it is empty (and left). */
  beginObject(): boolean {
    this.expect(123); // {
    if (this.peek() !== 125) return true;
    this.pos++;
    return false;
  }

  /** The next member's key, with the cursor moved to its value. */
  key(): string {
    const key = this.string();
    this.expect(58); // :
    return key;
  }

  /** After a member's value: true when another member follows, false when the object ends here. */
  nextMember(): boolean {
    return this.next(125); // }
  }

  /** Enters the array at the cursor; false when it is empty (and left). */
  beginArray(): boolean {
    this.expect(91); // [
    if (this.peek() !== 93) return true;
    this.pos++;
    return false;
  }

  /** After an item: true when another item follows, false when the array ends here. */
  nextItem(): boolean {
    return this.next(93); // ]
  }

  /** The string at the cursor, as its value. */
  string(): string {
    if (this.peek() !== 34) throw offShape;
    const start = this.pos;
    plainString.lastIndex = start;
    if (plainString.test(this.text)) {
      this.pos = plainString.lastIndex;
      return this.text.slice(start + 1, this.pos - 1);
    }
    return JSON.parse(this.escapedString()) as string;
  }

  /** The string at the cursor as JSON text, written as `JSON.stringify` writes its value. */
  stringText(): string {
    if (this.peek() !== 34) throw offShape;
    const start = this.pos;
    canonicalString.lastIndex = start;
    if (canonicalString.test(this.text)) {
      this.pos = canonicalString.lastIndex;
      return this.text.slice(start, this.pos);
    }
    return JSON.stringify(JSON.parse(this.escapedString()));
  }

  /**
   * The scalar at the cursor (string, number, true, false or null); an object or an array is
   * skipped and reads as undefined.
   */
  scalar(): unknown {
    switch (this.peek()) {
      case 34:
        return this.string();
      case 123:
      case 91:
        this.skip();
        return undefined;
      case 116:
        return this.literal('true', true);
      case 102:
        return this.literal('false', false);
      case 110:
        return this.literal('null', null);
      default:
        return this.number();
    }
  }

  /** Moves past the value at the cursor, checking it. */
  skip(): void {
    switch (this.peek()) {
      case 123:
        if (this.beginObject())
          do {
            this.key();
            this.skip();
          } while (this.nextMember());
        return;
      case 91:
        if (this.beginArray())
          do this.skip();
          while (this.nextItem());
        return;
      default:
        this.scalar();
    }
  }

  /** Checks that nothing but whitespace follows. */
  end(): void {
    if (!Number.isNaN(this.peek())) throw offShape;
  }

  private next(close: number): boolean {
    const code = this.peek();
    this.pos++;
    if (code === 44) return true; // ,
    if (code === close) return false;
    throw offShape;
  }

  private expect(code: number): void {
    if (this.peek() !== code) throw offShape;
    this.pos++;
  }

  private escapedString(): string {
    const start = this.pos;
    anyString.lastIndex = start;
    if (!anyString.test(this.text)) throw offShape;
    this.pos = anyString.lastIndex;
    return this.text.slice(start, this.pos);
  }

  private literal<T>(word: string, value: T): T {
    if (!this.text.startsWith(word, this.pos)) throw offShape;
    this.pos += word.length;
    return value;
  }

  /** A number; an integer token that is not a safe integer as its digits (query-language D3). */
  private number(): number | string {
    const start = this.pos;
    numberToken.lastIndex = start;
    if (!numberToken.test(this.text)) throw offShape;
    this.pos = numberToken.lastIndex;
    const token = this.text.slice(start, this.pos);
    const value = Number(token);
    if (Number.isSafeInteger(value) || token.includes('.') || token.includes('e') || token.includes('E')) return value;
    return token;
  }
}
