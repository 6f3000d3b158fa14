/**
 * What a pipeline stage's table looks like to the SQL that reads it: raw events (the `logs`
 * columns, with eval and rename results layered on top) or a table of named value pairs.
 */
import { restOnlyLayout, sqlString, type StoredLayout } from '../../core/index.js';
import type { AnalyzedQuery, FieldTypes } from '../analyzer/analyze-query.js';
import { isSystemColumn } from '../column-names.js';
import { missingValue, pairValue, storedValue, stringValue, type SqlValue } from './sql-value.js';

/** A column change on raw events, replayed by the row decoder in this order. */
export type RawColumnOp = { readonly kind: 'set'; readonly name: string; readonly s: string; readonly n: string } | { readonly kind: 'delete'; readonly name: string };

export interface RawEnv {
  readonly mode: 'events';
  /** Columns set by eval/rename (value pair aliases) or removed by rename, by name. */
  readonly overrides: ReadonlyMap<string, { readonly s: string; readonly n: string } | 'deleted'>;
  readonly ops: readonly RawColumnOp[];
  /** The catalog's types of the stored columns; absent: unknown, every variant is read (storedValue). */
  readonly fieldTypes?: FieldTypes;
  /** Where stored columns are; absent: no field map is known, every column is in the rest maps. */
  readonly storedLayout?: StoredLayout;
  /** Rows carry this partition column (compileWindowedQuery): every later command works per partition. */
  readonly partition?: string;
}

export interface TableColumn {
  readonly name: string;
  readonly s: string;
  readonly n: string;
}

export interface TableEnv {
  readonly mode: 'table';
  readonly columns: readonly TableColumn[];
  /** SQL ORDER BY terms that give the table's row order. */
  readonly order: readonly string[];
  /** The rows are still events in time order (`table` after the filter): results may be sliced. */
  readonly fromEvents?: boolean;
  /** Rows carry this partition column, first in `order`: every later command works per partition. */
  readonly partition?: string;
}

export type SqlEnv = RawEnv | TableEnv;

/** The stored events a query's filter reads, with the field types the analyzer carries when known. */
export function storedEventsEnv(analyzed: AnalyzedQuery): RawEnv {
  return {
    mode: 'events',
    overrides: new Map(),
    ops: [],
    ...(analyzed.fieldTypes ? { fieldTypes: analyzed.fieldTypes } : {}),
    ...(analyzed.storedLayout ? { storedLayout: analyzed.storedLayout } : {}),
  };
}

/** Resolves a (canonical, wildcard-free) column name in a stage's table. */
export function resolveColumn(env: SqlEnv, name: string, indexNames: ReadonlyMap<string, string>): ResolvedColumn {
  if (env.mode === 'table') {
    const column = env.columns.find((c) => c.name === name);
    return column === undefined ? { value: missingValue, inSearchText: false } : { value: pairValue(column.s, column.n), inSearchText: false };
  }
  const override = env.overrides.get(name);
  if (override === 'deleted') return { value: missingValue, inSearchText: false };
  if (override !== undefined) return { value: pairValue(override.s, override.n), inSearchText: false };
  if (isSystemColumn(name)) return { value: systemValue(name, indexNames), inSearchText: false };
  const types = env.fieldTypes === undefined ? undefined : (env.fieldTypes.get(name) ?? []);
  const value = storedValue(name, types, env.storedLayout ?? restOnlyLayout);
  return { value, inSearchText: true };
}

export interface ResolvedColumn {
  readonly value: SqlValue;
  /** The value is one of the event's stored values, so search_text's index can prefilter it. */
  readonly inSearchText: boolean;
}

/** The event's datetime as RFC 3339 with nine fractional digits (D4). */
export const datetimeSql = "concat(replaceOne(toString(ts), ' ', 'T'), 'Z')";

function systemValue(name: string, indexNames: ReadonlyMap<string, string>): SqlValue {
  switch (name) {
    case '@svc.datetime':
      return stringValue(datetimeSql);
    case '@svc.time_ns':
      return stringValue('toString(toUnixTimestamp64Nano(ts))');
    case '@svc.source_type':
      return stringValue('source_type');
    case '@index_id':
      return stringValue('idx');
    case '@index': {
      const ids = [...indexNames.keys()];
      if (ids.length === 0) return stringValue("''");
      const names = ids.map((id) => indexNames.get(id) as string);
      return stringValue(`transform(idx, [${ids.map(sqlString).join(', ')}], [${names.map(sqlString).join(', ')}], '')`);
    }
    default:
      // an unknown @svc column: no event has it
      return missingValue;
  }
}

/** Names of every user column an env adds or removes on top of the stored event. */
export function rawOverrideNames(env: RawEnv): string[] {
  return [...env.overrides.keys()];
}
