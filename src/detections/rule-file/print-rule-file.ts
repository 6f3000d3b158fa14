import { Document, isScalar } from 'yaml';
import type { RuleDefinition, RuleTestDefinition } from './rule-definition.js';
import { definitionDefaults } from './rule-definition.js';

export interface PrintOptions {
  /** Written as a `# schema: <url>` first line, so editors and Scanner-style syncs recognize the file. */
  readonly schemaUrl?: string | null;
}

/**
 * Prints a definition as a canonical rule file: fields in a fixed order, current spellings only
 * (`push_key`, `dedup_window_s`, states by name, the label/value template form), multi-line text
 * as literal blocks, optional fields left out when they hold their default. `readRuleFile` of the
 * output gives back an equal definition.
 */
export function printRuleFile(definition: RuleDefinition, options: PrintOptions = {}): string {
  const d = definition;
  const file: Record<string, unknown> = {
    name: d.name,
    description: d.description,
    ...(d.enabled !== null ? { enabled: d.enabled } : {}),
    severity: d.severity,
    query_text: d.queryText,
    time_range_s: d.timeRangeS,
    run_frequency_s: d.runFrequencyS,
    ...(d.dedupWindowS !== null ? { dedup_window_s: d.dedupWindowS } : {}),
    ...(d.debounce !== definitionDefaults.debounce ? { debounce: d.debounce } : {}),
    ...(d.alertPerRow !== definitionDefaults.alertPerRow ? { alert_per_row: d.alertPerRow } : {}),
    ...(d.eventSinkKeys.length > 0 ? { event_sink_keys: [...d.eventSinkKeys] } : {}),
    ...(d.pushKey !== null ? { push_key: d.pushKey } : {}),
    ...(d.tags.length > 0 ? { tags: [...d.tags] } : {}),
    ...(d.alertTemplate !== null
      ? {
          alert_template: {
            info: d.alertTemplate.info.map((i) => ({ label: i.label, value: i.value, ...(i.useForDedup ? { use_for_dedup: true } : {}) })),
            actions: d.alertTemplate.actions.map((a) => ({ label: a.label, value: a.value })),
          },
        }
      : {}),
    ...(d.tests.length > 0 ? { tests: d.tests.map(testEntry) } : {}),
  };
  const header = options.schemaUrl ? `# schema: ${options.schemaUrl}\n` : '';
  // lineWidth 0: long lines are never folded, so what a user wrote on one line stays on one line.
  const document = new Document(file);
  // Quoted, so YAML 1.1 readers (PyYAML) do not turn the time into a date object.
  d.tests.forEach((_, i) => {
    const node: unknown = document.getIn(['tests', i, 'now_timestamp'], true);
    if (isScalar(node)) node.type = 'QUOTE_DOUBLE';
  });
  return header + document.toString({ lineWidth: 0, minContentWidth: 0, blockQuote: 'literal', indentSeq: true });
}

function testEntry(test: RuleTestDefinition): Record<string, unknown> {
  return {
    name: test.name,
    ...(test.nowTimestamp !== null ? { now_timestamp: test.nowTimestamp } : {}),
    ...(test.datasetFormat !== null ? { dataset_format: test.datasetFormat } : {}),
    dataset_inline: test.datasetInline,
    expected_detection_result: test.expectedDetectionResult,
  };
}
