import { alertTemplateLimits } from '../alert-template.js';
import { enabledStates } from '../enabled-state.js';
import { maxQueryTextLength } from '../rule-query-check.js';
import { ruleLimits } from '../rule-input.js';
import { severityInputs } from '../severity.js';
import { datasetFormats } from './rule-definition.js';

/** Where the server publishes the schema (`GET`), and the committed copy's path in the repository. */
export const ruleFileSchemaPath = '/schema/detection-rule.v1.json';

const minutes = (description: string) => ({ type: 'integer', minimum: 60, maximum: ruleLimits.maxTimeRangeS, multipleOf: 60, description });
const text = (maxLength: number, description?: string) => ({ type: 'string', maxLength, ...(description ? { description } : {}) });
const pair = (what: string) => ({ type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2, description: `Deprecated ${what} form: [label, value]` });

/**
 * The JSON Schema (draft-07) of a rule file, for editors that validate YAML as it is typed. It
 * states shapes, types and ranges; what it cannot say (the query parses, `run_frequency_s` is at
 * most `time_range_s`, `{{ }}` expressions, datasets) `vigil rules validate` checks. Unknown fields
 * are allowed, as the validator only warns about them (E14). Built from the same constants as
 * the checks, so the two cannot drift apart; the committed copy is compared with it by a test.
 */
export function ruleFileSchema(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'Vigil detection rule file',
    description: 'One detection rule as YAML (interface 2.5). A first line "# schema: <url>" is accepted. See docs/rule-files.md.',
    type: 'object',
    required: ['name', 'description', 'query_text', 'time_range_s', 'run_frequency_s'],
    properties: {
      name: { ...text(ruleLimits.name), minLength: 1 },
      description: text(ruleLimits.description),
      enabled: {
        description: 'Active runs and alerts, Staging runs without alerting, Paused does not run; null: no state. Legacy: true (Active), false (Paused)',
        enum: [...enabledStates, null, true, false],
      },
      severity: { enum: [...severityInputs], description: 'OCSF severity (default Unknown); Information is read as Informational' },
      query_text: { ...text(maxQueryTextLength, 'The rule query (docs/query-language.md)'), minLength: 1 },
      time_range_s: minutes('Lookback in seconds: whole minutes, 60 to 30 days'),
      run_frequency_s: minutes('Seconds between runs: whole minutes, at least 60, at most time_range_s'),
      dedup_window_s: { type: ['integer', 'null'], minimum: 0, maximum: ruleLimits.maxDedupWindowS, description: 'Null (default): the run frequency' },
      dedup_window: { type: ['integer', 'null'], minimum: 0, maximum: ruleLimits.maxDedupWindowS, description: 'Legacy spelling of dedup_window_s' },
      debounce: { type: 'boolean', description: 'Default true' },
      alert_per_row: { type: 'boolean', description: 'Default false' },
      event_sink_keys: {
        type: ['array', 'null'],
        maxItems: ruleLimits.eventSinks,
        items: { type: 'string', minLength: 1, maxLength: 200 },
        description: "Keys of the tenant's sink-key map",
      },
      push_key: { type: ['string', 'null'], minLength: 1, maxLength: ruleLimits.syncKey, description: 'Identifies the rule within its tenant for PUT /v1/detection_rule_yaml' },
      sync_key: { type: ['string', 'null'], minLength: 1, maxLength: ruleLimits.syncKey, description: 'Legacy spelling of push_key' },
      tags: { type: ['array', 'null'], maxItems: ruleLimits.tags, items: { type: 'string', minLength: 1, maxLength: ruleLimits.tag } },
      alert_template: {
        type: ['object', 'null'],
        properties: {
          info: {
            type: ['array', 'null'],
            maxItems: alertTemplateLimits.info,
            items: {
              anyOf: [
                {
                  type: 'object',
                  required: ['label', 'value'],
                  properties: {
                    label: { ...text(alertTemplateLimits.label), minLength: 1 },
                    value: text(alertTemplateLimits.value, '{{ expr }} placeholders hold query-language scalar expressions over @alert'),
                    use_for_dedup: { type: 'boolean', description: 'Default false' },
                  },
                },
                pair('info'),
              ],
            },
          },
          actions: {
            type: ['array', 'null'],
            maxItems: alertTemplateLimits.actions,
            items: {
              anyOf: [
                {
                  type: 'object',
                  required: ['label', 'value'],
                  properties: { label: { ...text(alertTemplateLimits.label), minLength: 1 }, value: text(alertTemplateLimits.value, 'A URL') },
                },
                pair('action'),
              ],
            },
          },
        },
      },
      tests: {
        type: ['array', 'null'],
        items: {
          type: 'object',
          required: ['name', 'dataset_inline', 'expected_detection_result'],
          properties: {
            name: { type: 'string', minLength: 1 },
            now_timestamp: { type: ['string', 'null'], description: 'RFC 3339; rounded up to the run frequency. Default: just after the latest event' },
            dataset_format: { enum: [...datasetFormats, null], description: 'Default LegacyFlatten' },
            dataset_inline: { type: 'string', description: 'One JSON event per line, with its time in @scnr.datetime, @svc.datetime or timestamp' },
            expected_detection_result: { type: 'boolean' },
          },
        },
      },
    },
  };
}
