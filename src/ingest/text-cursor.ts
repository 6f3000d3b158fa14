/**
 * A forward-only reader over a short string, for the hand-written timestamp parsers: char-code
 * checks instead of regular expressions keep per-event cost low.
 */
export class TextCursor {
  pos = 0;

  constructor(readonly text: string) {}

  /** True when every character has been consumed. */
  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  /** The character code at the cursor, or -1 at the end. */
  peek(): number {
    return this.pos < this.text.length ? this.text.charCodeAt(this.pos) : -1;
  }

  /** Consumes one character when it is `code`. */
  eat(code: number): boolean {
    if (this.peek() !== code) return false;
    this.pos++;
    return true;
  }

  /** Consumes a run of spaces; returns how many. */
  spaces(): number {
    const start = this.pos;
    while (this.peek() === 32) this.pos++;
    return this.pos - start;
  }

  /** Reads `min` to `max` ASCII digits as a number, or returns -1 (consuming nothing). */
  digits(min: number, max: number): number {
    let value = 0;
    let n = 0;
    while (n < max) {
      const c = this.peek();
      if (c < 48 || c > 57) break;
      value = value * 10 + (c - 48);
      this.pos++;
      n++;
    }
    if (n < min) {
      this.pos -= n;
      return -1;
    }
    return value;
  }

  /**
   * Reads a fraction of a second (the digits after `.` or `,`) as nanoseconds. Digits past the
   * ninth are consumed and dropped. Returns -1 when no digit follows.
   */
  fractionNanos(): number {
    let nanos = 0;
    let n = 0;
    for (;;) {
      const c = this.peek();
      if (c < 48 || c > 57) break;
      if (n < 9) nanos = nanos * 10 + (c - 48);
      n++;
      this.pos++;
    }
    if (n === 0) return -1;
    for (let k = n; k < 9; k++) nanos *= 10;
    return nanos;
  }

  /** Consumes `word` when it follows, ignoring ASCII letter case. */
  eatWord(word: string): boolean {
    const end = this.pos + word.length;
    if (end > this.text.length || this.text.slice(this.pos, end).toLowerCase() !== word) return false;
    this.pos = end;
    return true;
  }

  /**
   * Reads a numeric UTC offset `±hh`, `±hhmm` or `±hh:mm` as minutes east of UTC, or returns
   * null (consuming nothing).
   */
  numericOffset(): number | null {
    const start = this.pos;
    const sign = this.peek();
    if (sign !== 43 && sign !== 45) return null;
    this.pos++;
    const hours = this.digits(2, 2);
    if (hours < 0 || hours > 23) {
      this.pos = start;
      return null;
    }
    let minutes = 0;
    const colon = this.eat(58);
    const mm = this.digits(2, 2);
    if (mm >= 0) minutes = mm;
    else if (colon) {
      this.pos = start;
      return null;
    }
    if (minutes > 59) {
      this.pos = start;
      return null;
    }
    const total = hours * 60 + minutes;
    return sign === 45 ? -total : total;
  }
}

/** A time of day read from text. */
export interface ClockTime {
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly nanos: number;
}

/** `hh:mm:ss[.fraction]`; seconds may be omitted unless `needSeconds`. */
export function readClockTime(c: TextCursor, needSeconds: boolean): ClockTime | null {
  const hour = c.digits(2, 2);
  if (hour < 0 || !c.eat(58)) return null;
  const minute = c.digits(2, 2);
  if (minute < 0) return null;
  let second = 0;
  let nanos = 0;
  if (c.eat(58)) {
    second = c.digits(2, 2);
    if (second < 0) return null;
    if (c.eat(46) || c.eat(44)) {
      nanos = c.fractionNanos();
      if (nanos < 0) return null;
    }
  } else if (needSeconds) {
    return null;
  }
  return { hour, minute, second, nanos };
}
