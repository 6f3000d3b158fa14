import { formatRfc3339Ns } from '../core/index.js';
import type { AlertMessage } from '../domain/index.js';

/**
 * The `_detections` event of one firing (detections.md 1.2, E4): the alert's fields with
 * `timestamp` as RFC 3339 (when it fired), `staging` as "true"/"false", `tags` and the result
 * table as nested JSON, so ingest flattens them to `tags[0]` and
 * `results_table.rows[0].<column>` and correlation rules can query them.
 */
export function detectionEvent(alert: AlertMessage): Record<string, unknown> {
  return {
    id: alert.id,
    detection_rule_id: alert.detectionRuleId,
    tenant_id: alert.tenantId,
    name: alert.name,
    description: alert.description,
    severity: alert.severity,
    severity_id: alert.severityId,
    query_text: alert.queryText,
    staging: String(alert.staging),
    timestamp: formatRfc3339Ns(BigInt(alert.timestampNs)),
    detected_in_time_range: { start: alert.window.start, end: alert.window.end },
    tags: alert.tags,
    results_table: {
      total_row_count: alert.resultsTable.totalRowCount,
      columns: alert.resultsTable.columns,
      rows: alert.resultsTable.rows,
    },
  };
}
