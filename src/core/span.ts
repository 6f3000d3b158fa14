/** A position in user-supplied text: 1-based line and column, 0-based offset. */
export interface Position {
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

/** A half-open range of user-supplied text that a diagnostic or AST node points at. */
export interface Span {
  readonly start: Position;
  readonly end: Position;
}

/** Formats a position the way every user-facing message does: `line:column`. */
export function formatPosition(p: Position): string {
  return `${p.line}:${p.column}`;
}
