import { assertNever } from '../../core/index.js';
import type { ColumnName, Command } from '../ast.js';
import { plainColumnName } from '../column-names.js';

/**
 * What identifies a result row for debounce (detections.md E5): raw events by their row id;
 * grouped aggregations by the values of their group columns; ungrouped aggregations by the rule
 * alone. When later commands hide the group columns (`table` without them), the whole row is the
 * identity.
 */
export type RowIdentityPlan = { readonly kind: 'event' } | { readonly kind: 'rule' } | { readonly kind: 'columns'; readonly columns: readonly string[] } | { readonly kind: 'row' };

/** The identity plan of a query's rows, from its pipeline: the compiler puts it on its output. */
export function rowIdentityPlan(pipeline: readonly Command[]): RowIdentityPlan {
  let plan: RowIdentityPlan = { kind: 'event' };
  for (const command of pipeline) plan = afterCommand(plan, command);
  return plan;
}

function afterCommand(plan: RowIdentityPlan, command: Command): RowIdentityPlan {
  switch (command.kind) {
    case 'aggregate':
      return { kind: 'rule' };
    case 'groupbycount':
      return groupedBy(command.columns);
    case 'stats':
      return command.by.length === 0 ? { kind: 'rule' } : groupedBy(command.by);
    case 'rename': {
      if (plan.kind !== 'columns') return plan;
      let columns: string[] = [...plan.columns];
      for (const rename of command.renames) {
        const from = plainColumnName(rename.from);
        const to = plainColumnName(rename.to);
        columns = columns.map((c) => (c === from && to !== null ? to : c));
      }
      return { kind: 'columns', columns };
    }
    case 'table': {
      if (plan.kind !== 'columns') return plan;
      const kept = names(command.columns) ?? [];
      return plan.columns.every((c) => kept.includes(c)) ? plan : { kind: 'row' };
    }
    case 'eval': {
      if (plan.kind !== 'columns') return plan;
      const assigned = command.assignments.map((a) => plainColumnName(a.column));
      return plan.columns.some((c) => assigned.includes(c)) ? { kind: 'row' } : plan;
    }
    case 'lookup': {
      // Like eval: written columns that the identity reads change it (all of a table's columns
      // when the command does not list its outputs: not known here, so the row decides).
      if (plan.kind !== 'columns') return plan;
      const written = command.outputs?.map((o) => plainColumnName(o.alias ?? o.column));
      return written === undefined || plan.columns.some((c) => written.includes(c)) ? { kind: 'row' } : plan;
    }
    case 'where':
    case 'head':
    case 'tail':
      return plan;
    default:
      return assertNever(command, 'command');
  }
}

/** Group columns by their plain names; a column without one (not nameable in a row) makes the whole row the identity. */
function groupedBy(columns: readonly ColumnName[]): RowIdentityPlan {
  const out = names(columns);
  return out === null ? { kind: 'row' } : { kind: 'columns', columns: out };
}

function names(columns: readonly ColumnName[]): string[] | null {
  const out = columns.map((c) => plainColumnName(c));
  return out.every((n): n is string => n !== null) ? out : null;
}
