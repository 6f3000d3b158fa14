/**
 * The text sent for a search limited to one index: the user's filter wrapped as
 * `@index=NAME (filter\n) | pipeline`, and how to carry a position the server reports in that
 * text back to the user's own text (for the error squiggle).
 */
export interface ScopedQuery {
  readonly text: string;
  /** A 1-based line and column of `text` as a 0-based offset into the user's query. */
  toUserOffset(line: number, column: number): number;
}

interface Piece {
  readonly sentStart: number;
  readonly userStart: number;
  readonly length: number;
}

/** Wraps `query` to search only `index` (every index when null: the text is sent as typed). */
export function scopeToIndex(query: string, index: string | null): ScopedQuery {
  if (index === null) return { text: query, toUserOffset: (line, column) => offsetOf(query, line, column) };
  const pipe = firstPipe(query);
  const filter = pipe === -1 ? query : query.slice(0, pipe);
  const prefix = `@index=${indexTerm(index)} `;
  const pieces: Piece[] = [];
  let text = prefix;
  if (filter.trim() === '') {
    // Nothing to wrap (`| stats count()`): the selector alone is the filter.
    pieces.push({ sentStart: text.length, userStart: 0, length: query.length });
    text += query;
  } else {
    text += '(';
    pieces.push({ sentStart: text.length, userStart: 0, length: filter.length });
    text += filter;
    // On its own line, so a comment ending the filter cannot swallow the parenthesis.
    text += '\n) ';
    if (pipe !== -1) {
      pieces.push({ sentStart: text.length, userStart: pipe, length: query.length - pipe });
      text += query.slice(pipe);
    }
  }
  return {
    text,
    toUserOffset(line, column) {
      const sent = offsetOf(text, line, column);
      let best = 0;
      for (const piece of pieces) {
        if (sent >= piece.sentStart) best = piece.userStart + Math.min(sent - piece.sentStart, piece.length);
      }
      return Math.min(best, query.length);
    },
  };
}

/** A 1-based line and column (UTF-16 units, as the server counts) as an offset into `text`, clamped to it. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  const lineEnd = text.indexOf('\n', offset);
  const end = lineEnd === -1 ? text.length : lineEnd;
  return Math.min(offset + Math.max(column - 1, 0), end);
}

/** `@index=` takes a bare name when it is one, else the name in double quotes (exact). */
function indexTerm(name: string): string {
  if (/^[A-Za-z_][\w.-]*$/.test(name) && !/^(and|or|not)$/i.test(name)) return name;
  return `"${name.replace(/[\\"*]/g, (c) => `\\${c}`)}"`;
}

/**
 * Where the pipeline starts: the first `|` outside quotes, backticks, comments and the braces of
 * `@index={id | "name"}`; -1 when the query has no pipeline.
 */
export function firstPipe(query: string): number {
  let braces = 0;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '"' || c === "'" || c === '`') {
      i = closingQuote(query, i);
    } else if (c === '#') {
      const end = query.indexOf('\n', i);
      if (end === -1) return -1;
      i = end;
    } else if (c === '{') {
      braces++;
    } else if (c === '}') {
      braces = Math.max(0, braces - 1);
    } else if (c === '|' && braces === 0) {
      return i;
    }
  }
  return -1;
}

function closingQuote(text: string, open: number): number {
  const quote = text[open];
  for (let i = open + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}
