import type { AlertTemplateRecord, EnabledState, Severity } from '../../domain/index.js';

/** How a test's `dataset_inline` lines are read (detections.md 3.3). */
export const datasetFormats = ['LegacyFlatten', 'RawJson', 'FlatTable'] as const;
export type DatasetFormat = (typeof datasetFormats)[number];

/** One rule test of a definition (docs/interface.md 2.5, "Rule test"). */
export interface RuleTestDefinition {
  readonly name: string;
  /** Newline-delimited JSON events, exactly as written in the file. */
  readonly datasetInline: string;
  /** Null when the file gives none: the events are read as `LegacyFlatten`. */
  readonly datasetFormat: DatasetFormat | null;
  readonly expectedDetectionResult: boolean;
  /** RFC 3339 as written, or null: `now` is then derived from the latest event (E15). */
  readonly nowTimestamp: string | null;
}

/**
 * A detection rule in its definition (file and upsert) form, docs/interface.md 2.5, after the
 * compatibility spellings of E14 were read: `enabled: true|false` is Active|Paused, `dedup_window`
 * is `dedupWindowS`, `sync_key` is `pushKey`, `Information` is `Informational`, and the deprecated
 * pair-array template form is in the current form. Every optional field holds its default when
 * the file leaves it out, so two definitions compare field by field.
 */
export interface RuleDefinition {
  readonly name: string;
  readonly description: string;
  readonly queryText: string;
  readonly runFrequencyS: number;
  readonly timeRangeS: number;
  readonly alertPerRow: boolean;
  readonly alertTemplate: AlertTemplateRecord | null;
  readonly debounce: boolean;
  /** Null: the run frequency. */
  readonly dedupWindowS: number | null;
  /** Null: no state given (a new upserted rule is then Paused, a synced one takes no state). */
  readonly enabled: EnabledState | null;
  /** Symbolic sink names, resolved per tenant (docs/interface.md 2.5, detections.md 3.4). */
  readonly eventSinkKeys: readonly string[];
  /** The rule's stable identifier within its tenant for single-rule upsert (stored as `sync_key`). */
  readonly pushKey: string | null;
  readonly severity: Severity;
  readonly tags: readonly string[];
  readonly tests: readonly RuleTestDefinition[];
}

/** The values of the optional fields when a file leaves them out (docs/interface.md 2.5). */
export const definitionDefaults = {
  alertPerRow: false,
  alertTemplate: null,
  debounce: true,
  dedupWindowS: null,
  enabled: null,
  eventSinkKeys: [],
  pushKey: null,
  severity: 'Unknown',
  tags: [],
  tests: [],
} as const satisfies Partial<RuleDefinition>;
