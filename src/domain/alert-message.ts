import type { Severity } from './detection-rule.js';

/** A cell of an alert's result table: tables hold numbers, strings and null. */
export type AlertCell = string | number | null;

/** A rendered template item: `{{ }}` expressions already evaluated (detections.md E9). */
export interface RenderedItem {
  readonly label: string;
  readonly value: string;
}

/**
 * An alert as every sink sees it: the `@alert` object of detections.md 2 and 5.2, with the rule's
 * template already rendered. Plain JSON values only (the firing time in nanoseconds is decimal
 * text, since it passes 2^53), so the outbox stores it as is and a retry sends the same alert.
 */
export interface AlertMessage {
  readonly id: string;
  readonly detectionRuleId: string;
  readonly tenantId: string;
  readonly name: string;
  readonly description: string;
  readonly queryText: string;
  /** OCSF severity name and id (docs/interface.md 2.4). */
  readonly severity: Severity;
  readonly severityId: number;
  readonly tags: readonly string[];
  /** The evaluated window, RFC 3339 with nine fractional digits. */
  readonly window: { readonly start: string; readonly end: string };
  /** When the detection fired, nanoseconds since the epoch as decimal digits. */
  readonly timestampNs: string;
  readonly staging: boolean;
  /** The result table, cut to its first rows; `totalRowCount` keeps the true count. */
  readonly resultsTable: {
    readonly columns: readonly string[];
    readonly rows: readonly Readonly<Record<string, AlertCell>>[];
    readonly totalRowCount: number;
  };
  /** The template's info items, rendered, `@pagerduty.` overrides included (only the pager sink uses those). */
  readonly info: readonly RenderedItem[];
  /** The template's actions, rendered; values that are URLs become buttons or links. */
  readonly actions: readonly RenderedItem[];
  /** False when the rule has no template: sinks then show the first rows themselves. */
  readonly templated: boolean;
}
