import { createHash } from 'node:crypto';
import { assertNever } from '../core/index.js';
import { parseQuery, plainColumnName, type ColumnName, type TableValue } from '../query/index.js';
import type { ResultRow } from './run-query.js';

/**
 * What identifies a result row for debounce (detections.md E5): raw events by their row id;
 * grouped aggregations by the values of their group columns; ungrouped aggregations by the rule
 * alone. When later commands hide the group columns (`table` without them), the whole row is the
 * identity.
 */
export type RowIdentityPlan = { readonly kind: 'event' } | { readonly kind: 'rule' } | { readonly kind: 'columns'; readonly columns: readonly string[] } | { readonly kind: 'row' };

/** Reads the plan from the rule's query (a query that does not parse identifies rows by their values). */
export function rowIdentityPlan(queryText: string): RowIdentityPlan {
  const parsed = parseQuery(queryText);
  if (parsed.query === null) return { kind: 'row' };
  let plan: RowIdentityPlan = { kind: 'event' };
  const names = (columns: readonly ColumnName[]): string[] | null => {
    const out = columns.map((c) => plainColumnName(c));
    return out.every((n): n is string => n !== null) ? out : null;
  };
  for (const command of parsed.query.pipeline) {
    switch (command.kind) {
      case 'aggregate':
        plan = { kind: 'rule' };
        break;
      case 'groupbycount': {
        const columns = names(command.columns);
        plan = columns === null ? { kind: 'row' } : { kind: 'columns', columns };
        break;
      }
      case 'stats': {
        const columns = names(command.by);
        plan = columns === null ? { kind: 'row' } : columns.length === 0 ? { kind: 'rule' } : { kind: 'columns', columns };
        break;
      }
      case 'rename':
        if (plan.kind === 'columns') {
          let columns: string[] = [...plan.columns];
          for (const rename of command.renames) {
            const from = plainColumnName(rename.from);
            const to = plainColumnName(rename.to);
            columns = columns.map((c: string) => (c === from && to !== null ? to : c));
          }
          plan = { kind: 'columns', columns };
        }
        break;
      case 'table':
        if (plan.kind === 'columns') {
          const kept = names(command.columns) ?? [];
          if (!plan.columns.every((c) => kept.includes(c))) plan = { kind: 'row' };
        }
        break;
      case 'eval':
        if (plan.kind === 'columns') {
          const assigned = command.assignments.map((a) => plainColumnName(a.column));
          if (plan.columns.some((c) => assigned.includes(c))) plan = { kind: 'row' };
        }
        break;
      case 'lookup':
        // Like eval: written columns that the identity reads change it (all of a table's columns
        // when the command does not list its outputs: not known here, so the row decides).
        if (plan.kind === 'columns') {
          const written = command.outputs?.map((o) => plainColumnName(o.alias ?? o.column));
          if (written === undefined || plan.columns.some((c) => written.includes(c))) plan = { kind: 'row' };
        }
        break;
      case 'where':
      case 'head':
      case 'tail':
        break;
      default:
        assertNever(command, 'command');
    }
  }
  return plan;
}

/** The identity of one result row under a plan, hashed to a fixed length for the store. */
export function rowIdentity(plan: RowIdentityPlan, row: ResultRow): string {
  let key: string;
  if (row.rowId !== null && plan.kind === 'event') key = `event:${row.rowId.t}:${row.rowId.s}`;
  else if (plan.kind === 'rule') key = 'rule';
  else if (plan.kind === 'columns') key = `group:${JSON.stringify(plan.columns.map((c) => cell(row.columns, c)))}`;
  else key = `row:${JSON.stringify(Object.entries(row.columns).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))}`;
  return createHash('sha256').update(key).digest('base64url').slice(0, 32);
}

function cell(columns: Readonly<Record<string, TableValue>>, name: string): TableValue {
  return Object.hasOwn(columns, name) ? (columns[name] ?? null) : null;
}
