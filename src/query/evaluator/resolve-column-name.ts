/** From a written column name to the columns it denotes: aliases (D1) and wildcards (D16). */
import { assertNever, canonicalSystemName, QueryAnalysisError } from '../../core/index.js';
import type { ColumnName, NamePart } from '../ast.js';
import { printColumnName } from '../printer.js';

/** Maps D1's alias spellings to the real name: `@scnr.x`, `@scanner.x` → `@svc.x`, `%ingest.source_type` → `@svc.source_type`. */
export function resolveColumnAlias(name: string): string {
  if (name === '%ingest.source_type') return '@svc.source_type';
  return canonicalSystemName(name);
}

export function hasWildcard(column: ColumnName): boolean {
  return column.parts.some((p) => p.kind !== 'text');
}

/**
 * The one column a wildcard-free name denotes, aliases resolved. `where` says which command
 * needs a single column; a wildcard there is an error the analyzer should have reported.
 */
export function plainColumnName(column: ColumnName, where: string): string {
  if (hasWildcard(column)) {
    throw new QueryAnalysisError(`wildcard column name ${printColumnName(column)} is not allowed in ${where}`, {
      span: column.span,
    });
  }
  return resolveColumnAlias(column.parts.map((p) => (p.kind === 'text' ? p.text : '')).join(''));
}

/**
 * The names among `existing` that `column` denotes. Column names are case-sensitive; an alias
 * prefix (`@scnr.`, `@scanner.`) is resolved before the wildcards apply, so `@scnr.*` reaches `@svc.source_type`.
 */
export function columnsMatching(column: ColumnName, existing: readonly string[]): string[] {
  if (!hasWildcard(column)) {
    const name = plainColumnName(column, 'a filter');
    return existing.includes(name) ? [name] : [];
  }
  const parts = resolvePrefixAlias(column.parts);
  return existing.filter((name) => nameMatches(parts, 0, Array.from(name), 0));
}

function resolvePrefixAlias(parts: readonly NamePart[]): readonly NamePart[] {
  const first = parts[0];
  if (first?.kind !== 'text') return parts;
  const text = resolveColumnAlias(first.text);
  return text === first.text ? parts : [{ kind: 'text', text }, ...parts.slice(1)];
}

/** `*` matches any run of characters except `.`, `[`, `]`; `**` any run at all (D16). */
function nameMatches(parts: readonly NamePart[], i: number, name: readonly string[], at: number): boolean {
  const part = parts[i];
  if (part === undefined) return at === name.length;
  switch (part.kind) {
    case 'text': {
      const text = Array.from(part.text);
      if (!text.every((c, k) => name[at + k] === c)) return false;
      return nameMatches(parts, i + 1, name, at + text.length);
    }
    case 'star':
      // Try every run length, stopping at the first character a single star may not cross.
      for (let end = at; end <= name.length; end++) {
        if (nameMatches(parts, i + 1, name, end)) return true;
        const c = name[end];
        if (c === '.' || c === '[' || c === ']') return false;
      }
      return false;
    case 'globstar':
      for (let end = at; end <= name.length; end++) {
        if (nameMatches(parts, i + 1, name, end)) return true;
      }
      return false;
    default:
      return assertNever(part, 'name part');
  }
}
