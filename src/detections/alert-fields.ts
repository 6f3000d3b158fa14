import { formatRfc3339Ns } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';
import { canonicalColumn, type TableValue } from '../query/index.js';

const rowCell = /^results_table\.rows\[(\d+)\]\.([\s\S]+)$/;
const listItem = /^(tags|results_table\.columns)\[(\d+)\]$/;

/**
 * The value a template name denotes (detections.md E9): `@alert.<path>` and `results_table.<path>`
 * read the alert object (paths as in the webhook body: `name`, `severity_id`,
 * `detected_in_time_range.start`, `tags[0]`, `results_table.rows[0].userIdentity.arn`, where the
 * part after `rows[i].` is the column name as written, dots included); any other name is that
 * column of the first row. Missing values are null.
 */
export function alertField(alert: AlertMessage, name: string): TableValue {
  if (name.startsWith('@alert.')) return alertPath(alert, name.slice('@alert.'.length));
  if (name.startsWith('results_table.')) return alertPath(alert, name);
  return cell(alert.resultsTable.rows[0], name);
}

function alertPath(alert: AlertMessage, path: string): TableValue {
  switch (path) {
    case 'id':
      return alert.id;
    case 'detection_rule_id':
      return alert.detectionRuleId;
    case 'tenant_id':
      return alert.tenantId;
    case 'severity':
      return alert.severity;
    case 'severity_id':
      return alert.severityId;
    case 'name':
      return alert.name;
    case 'description':
      return alert.description;
    case 'query_text':
      return alert.queryText;
    case 'timestamp':
      return formatRfc3339Ns(BigInt(alert.timestampNs));
    case 'staging':
      return String(alert.staging);
    case 'detected_in_time_range.start':
      return alert.window.start;
    case 'detected_in_time_range.end':
      return alert.window.end;
    case 'results_table.total_row_count':
      return alert.resultsTable.totalRowCount;
  }
  const row = rowCell.exec(path);
  if (row) return cell(alert.resultsTable.rows[Number(row[1])], canonicalColumn(row[2] as string));
  const item = listItem.exec(path);
  if (item) return (item[1] === 'tags' ? alert.tags : alert.resultsTable.columns)[Number(item[2])] ?? null;
  return null;
}

function cell(row: Readonly<Record<string, TableValue>> | undefined, column: string): TableValue {
  return row !== undefined && Object.hasOwn(row, column) ? (row[column] ?? null) : null;
}
