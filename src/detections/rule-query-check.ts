import { ValidationError, formatPosition, type Diagnostic } from '../core/index.js';
import { analyzeQuery, indexTargetsOf, parseQuery, plainColumnName, type IndexInfo, type LookupTableInfo, type Query } from '../query/index.js';

export const maxQueryTextLength = 100_000;

/**
 * Checks that a rule's query parses and means something in its tenant: the indexes it names
 * exist. The field catalog is not consulted (it depends on the data of a time range, and a rule
 * may well name columns whose events have not arrived yet), so wildcard columns expand to nothing
 * here. `indexes` may be a function of the parsed query (`indexesNamedIn` checks a rule file
 * with no tenant). `lookupTables` likewise: the tenant's, or by default those the query names, as
 * if they had the columns it names (`lookupTablesNamedIn`). ValidationError on `query_text` with
 * the first problem's position, and every problem in `diagnostics`.
 */
export function checkRuleQuery(
  text: string,
  indexes: readonly IndexInfo[] | ((query: Query) => readonly IndexInfo[]),
  field = 'query_text',
  lookupTables: readonly LookupTableInfo[] | ((query: Query) => readonly LookupTableInfo[]) = lookupTablesNamedIn,
): void {
  if (text.trim() === '') throw new ValidationError(`${field} must not be empty: a rule needs a query`, { field });
  if (text.length > maxQueryTextLength) throw new ValidationError(`${field} must be at most ${maxQueryTextLength} characters`, { field });
  const parsed = parseQuery(text);
  if (parsed.query === null) throw queryError(parsed.diagnostics, field);
  const known = typeof indexes === 'function' ? indexes(parsed.query) : indexes;
  const lookups = typeof lookupTables === 'function' ? lookupTables(parsed.query) : lookupTables;
  const analysis = analyzeQuery(parsed.query, { indexes: known, fieldPaths: [], lookupTables: lookups });
  if (analysis.analyzed === null) throw queryError(analysis.diagnostics, field);
}

/**
 * The indexes a query names, as if each existed: a rule file checked on its own, before it is
 * given a tenant. An index named with its id keeps that id; one named only by name gets its name
 * as id. Names starting with `_` are system indexes (`_detections`, `_audit`).
 */
export function indexesNamedIn(query: Query): IndexInfo[] {
  const found = new Map<string, IndexInfo>();
  for (const target of indexTargetsOf(query)) {
    const name = target.name ?? target.id ?? '';
    const id = target.id ?? name;
    if (!found.has(id)) found.set(id, { id, name, system: name.startsWith('_') });
  }
  return [...found.values()];
}

/**
 * The lookup tables a query names, as if each existed with the columns it names: a rule file
 * checked on its own, before it is given a tenant, whose tables are checked when it runs.
 */
export function lookupTablesNamedIn(query: Query): LookupTableInfo[] {
  const found = new Map<string, Set<string>>();
  for (const command of query.pipeline) {
    if (command.kind !== 'lookup') continue;
    const columns = found.get(command.table.name) ?? new Set<string>();
    for (const column of [command.key, ...(command.outputs ?? []).map((o) => o.column)]) columns.add(plainColumnName(column) ?? '');
    found.set(command.table.name, columns);
  }
  return [...found].map(([name, columns]) => ({ id: name, name, columns: [...columns], version: '' }));
}

function queryError(diagnostics: readonly Diagnostic[], field: string): ValidationError {
  const first = diagnostics[0];
  const where = first?.span ? ` at ${formatPosition(first.span.start)}` : '';
  const firstHint = (first as { hint?: unknown } | undefined)?.hint;
  const hint = typeof firstHint === 'string' ? `; hint: ${firstHint}` : '';
  const more = diagnostics.length > 1 ? ` and ${diagnostics.length - 1} more problem${diagnostics.length > 2 ? 's' : ''}` : '';
  return new ValidationError(`${first?.message ?? 'invalid query'}${where}${hint}${more}`, {
    field,
    diagnostics,
    ...(first?.span ? { span: first.span } : {}),
  });
}
