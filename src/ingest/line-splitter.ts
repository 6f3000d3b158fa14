/**
 * Splits decoded text arriving in arbitrary chunks into lines. A line ends at `\n`; a `\r` just
 * before it is dropped (CRLF), a lone `\r` is content. A UTF-8 byte order mark at the very start
 * of the input is dropped. Every line is returned, blank ones included, so callers can number
 * lines by counting.
 */
export class LineSplitter {
  /** Pieces of the line still waiting for its `\n` (kept as pieces: joining late is linear). */
  private partial: string[] = [];
  private started = false;

  /** Feeds one chunk; returns the lines it completed, in order. */
  push(chunk: string): string[] {
    if (!this.started) {
      if (chunk.length === 0) return [];
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    const lines: string[] = [];
    let start = 0;
    let nl = chunk.indexOf('\n');
    while (nl >= 0) {
      let line = chunk.slice(start, nl);
      if (this.partial.length > 0) {
        this.partial.push(line);
        line = this.partial.join('');
        this.partial = [];
      }
      lines.push(dropCarriageReturn(line));
      start = nl + 1;
      nl = chunk.indexOf('\n', start);
    }
    if (start < chunk.length) this.partial.push(start === 0 ? chunk : chunk.slice(start));
    return lines;
  }

  /** Ends the input; returns the last line when it had no final `\n`. */
  finish(): string | null {
    if (this.partial.length === 0) return null;
    const line = this.partial.join('');
    this.partial = [];
    return dropCarriageReturn(line);
  }
}

function dropCarriageReturn(line: string): string {
  return line.length > 0 && line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
}
