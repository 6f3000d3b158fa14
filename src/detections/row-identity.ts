import { createHash } from 'node:crypto';
import type { RowIdentityPlan, TableValue } from '../query/index.js';
import type { ResultRow } from './run-query.js';

/** The identity of one result row under its query's plan (detections.md E5; the compiler computes the plan), hashed to a fixed length for the store. */
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
