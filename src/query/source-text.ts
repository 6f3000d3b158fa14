import type { Position, Span } from '../core/index.js';

/**
 * Query text with a line index, so any offset becomes a `Position` in O(log lines). Offsets and
 * columns count UTF-16 code units (JavaScript string indices); only `\n` ends a line, so a `\r`
 * of a CRLF pair is ordinary whitespace at the end of its line.
 */
export class SourceText {
  private readonly lineStarts: readonly number[];

  constructor(readonly text: string) {
    const starts = [0];
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.lineStarts = starts;
  }

  get length(): number {
    return this.text.length;
  }

  position(offset: number): Position {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.lineStarts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.lineStarts[low] ?? 0) + 1, offset };
  }

  span(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(end) };
  }
}
