import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ruleFileSchema } from './rule-file-schema.js';
import { scannerRuleFiles, scannerRulesNote } from './testing/scanner-rule-files.js';

/** The copy committed for editors and readers; UPDATE_GOLDEN=1 rewrites it from the code. */
const committedPath = fileURLToPath(new URL('../../../schema/detection-rule.v1.json', import.meta.url));
const generated = `${JSON.stringify(ruleFileSchema(), null, 2)}\n`;

describe('the rule file JSON Schema', () => {
  it('is committed as generated (UPDATE_GOLDEN=1 refreshes schema/detection-rule.v1.json)', () => {
    if (process.env.UPDATE_GOLDEN === '1') {
      mkdirSync(dirname(committedPath), { recursive: true });
      writeFileSync(committedPath, generated);
    }
    expect(existsSync(committedPath), `${committedPath} is missing: run UPDATE_GOLDEN=1 npx vitest run ${fileURLToPath(import.meta.url)}`).toBe(true);
    expect(readFileSync(committedPath, 'utf8')).toBe(generated);
  });

  const validate = new Ajv({ strict: false, allErrors: true }).compile(ruleFileSchema());
  const base = { name: 'n', description: 'd', query_text: 'x', time_range_s: 300, run_frequency_s: 60 };

  it('accepts the compatibility spellings and both template forms', () => {
    const file = {
      ...base,
      enabled: true,
      severity: 'Information',
      dedup_window: 60,
      sync_key: 'k',
      alert_template: { info: [['a', 'b'], { label: 'c', value: 'd', use_for_dedup: true }], actions: [{ label: 'e', value: 'https://x' }] },
      tests: [{ name: 't', dataset_format: 'FlatTable', dataset_inline: '{}', expected_detection_result: true, now_timestamp: null }],
      some_future_field: 1,
    };
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each<[string, Record<string, unknown>]>([
    ['a lookback in part minutes', { time_range_s: 90 }],
    ['a frequency under a minute', { run_frequency_s: 30 }],
    ['an unknown severity', { severity: 'Severe' }],
    ['an unknown state', { enabled: 'On' }],
    ['a test without its expectation', { tests: [{ name: 't', dataset_inline: '{}' }] }],
    ['a template item without a value', { alert_template: { info: [{ label: 'x' }] } }],
    ['a missing name', { name: undefined }],
  ])('refuses %s', (_what, change) => {
    expect(validate(JSON.parse(JSON.stringify({ ...base, ...change })))).toBe(false);
  });

  const files = scannerRuleFiles();
  it.skipIf(files.length === 0)(`accepts every public rule file (${scannerRulesNote})`, () => {
    for (const file of files) expect(validate(parse(file.text)), `${file.path}: ${JSON.stringify(validate.errors)}`).toBe(true);
  });
});
