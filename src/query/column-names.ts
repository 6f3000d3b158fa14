/**
 * Column names as the language means them: aliases of system columns (D1) and name wildcards (D16).
 */
import { canonicalSystemName } from '../core/index.js';
import type { ColumnName } from './ast.js';

/** The system columns every event carries (D4); free text never searches them (D13). */
export const systemColumns = ['@svc.datetime', '@svc.time_ns', '@svc.source_type', '@index', '@index_id'] as const;

/**
 * Resolves the aliases of D1: `@scnr.x` (and the published product's `@scanner.x`) is `@svc.x`,
 * `%ingest.source_type` is `@svc.source_type`.
 */
export function canonicalColumn(name: string): string {
  if (name === '%ingest.source_type') return '@svc.source_type';
  return canonicalSystemName(name);
}

/** True for `@svc.*`, `@index` and `@index_id`: columns computed from the row, not stored values. */
export function isSystemColumn(name: string): boolean {
  return name === '@index' || name === '@index_id' || name === '@svc' || name.startsWith('@svc.') || name.startsWith('@svc[');
}

/** The name of a column without wildcards, aliases resolved; null when it has a wildcard. */
export function plainColumnName(column: ColumnName): string | null {
  let text = '';
  for (const part of column.parts) {
    if (part.kind !== 'text') return null;
    text += part.text;
  }
  return canonicalColumn(text);
}

/** True for the name `**` alone: every column at every depth. */
export function isEveryColumn(column: ColumnName): boolean {
  return column.parts.length === 1 && column.parts[0]?.kind === 'globstar';
}

/** A matcher for a wildcard name: `*` is any run without `.`, `[`, `]`; `**` is any run (D16). */
export function columnNameMatcher(column: ColumnName): (name: string) => boolean {
  const plain = plainColumnName(column);
  if (plain !== null) return (name) => name === plain;
  let source = '^';
  column.parts.forEach((part, i) => {
    // an alias prefix (`@scnr.*`, `@scanner.*`) matches the canonical names it stands for
    const text = part.kind === 'text' ? (i === 0 ? canonicalColumn(part.text) : part.text) : '';
    if (part.kind === 'text') source += text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (part.kind === 'star') source += '[^.\\[\\]]*';
    else source += '[\\s\\S]*';
  });
  const pattern = new RegExp(source + '$', 'u');
  return (name) => pattern.test(canonicalColumn(name));
}
