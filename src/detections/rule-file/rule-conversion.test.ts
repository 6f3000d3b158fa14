import { describe, expect, it } from 'vitest';
import { checkRuleFields } from '../rule-input.js';
import { printRuleFile } from './print-rule-file.js';
import { readRuleFile } from './read-rule-file.js';
import type { RuleDefinition } from './rule-definition.js';
import { apiFieldsOf, definitionOfApiFields, ruleInputOf } from './rule-conversion.js';
import { knownInvalidScannerRules, scannerRuleFiles, scannerRulesNote } from './testing/scanner-rule-files.js';

/** A definition with every field away from its default, and text that needs care in YAML. */
const full: RuleDefinition = {
  name: 'Admin policy: attached',
  description: 'Fires when AdministratorAccess is attached.\n\n  Indented line, "quotes", # not a comment\ntrailing spaces   ',
  queryText: '@scnr.source_type="aws:cloudtrail"\neventName:("AttachUserPolicy" "AttachRolePolicy")\n| stats count() as n by userIdentity.arn\n| where n > 0',
  runFrequencyS: 120,
  timeRangeS: 600,
  alertPerRow: true,
  alertTemplate: {
    info: [
      { label: 'Principal', value: '{{@alert.results_table.rows[0].userIdentity.arn}}', useForDedup: true },
      { label: 'Count', value: '{{results_table.rows[0].n}}', useForDedup: false },
    ],
    actions: [{ label: 'Runbook', value: 'https://runbooks.example.com/iam-admin' }],
  },
  debounce: false,
  dedupWindowS: 0,
  enabled: 'Staging',
  eventSinkKeys: ['high_severity_alerts', 'pager'],
  pushKey: 'iam/admin-policy',
  severity: 'Informational',
  tags: ['source.cloudtrail', 'techniques.t1098.account_manipulation'],
  tests: [
    {
      name: 'fires on attach',
      datasetInline: '{"@scnr":{"datetime":"2026-05-15T00:02:30Z"},"eventName":"AttachUserPolicy"}\n{"@scnr.datetime":"2026-05-15T00:02:31Z","eventName":"x"}\n',
      datasetFormat: 'RawJson',
      expectedDetectionResult: true,
      nowTimestamp: '2026-05-15T00:03:00.000Z',
    },
    { name: 'no time given', datasetInline: '{"timestamp":"2026-05-15T00:02:30Z"}', datasetFormat: null, expectedDetectionResult: false, nowTimestamp: null },
  ],
};

describe('printRuleFile', () => {
  it('prints text that reads back to the same definition, with no problem', () => {
    const text = printRuleFile(full, { schemaUrl: 'https://vigil.example.com/schema/detection-rule.v1.json' });
    const check = readRuleFile(text);
    expect(check.diagnostics).toEqual([]);
    expect(check.definition).toEqual(full);
    expect(check.schemaUrl).toBe('https://vigil.example.com/schema/detection-rule.v1.json');
    expect(text).toContain('query_text: |-\n  @scnr.source_type="aws:cloudtrail"\n');
    expect(text).toContain('now_timestamp: "2026-05-15T00:03:00.000Z"');
  });

  it('leaves out fields that hold their default', () => {
    const minimal: RuleDefinition = {
      ...full,
      alertPerRow: false,
      alertTemplate: null,
      debounce: true,
      dedupWindowS: null,
      enabled: null,
      eventSinkKeys: [],
      pushKey: null,
      tags: [],
      tests: [],
    };
    const text = printRuleFile(minimal);
    expect(
      text
        .split('\n')
        .map((line) => /^[a-z_]+(?=:)/.exec(line)?.[0])
        .filter(Boolean),
    ).toEqual(['name', 'description', 'severity', 'query_text', 'time_range_s', 'run_frequency_s']);
    expect(readRuleFile(text).definition).toEqual(minimal);
  });
});

describe('file ↔ API object', () => {
  it('keeps every field: file → definition → API object → definition → file', () => {
    const fields = apiFieldsOf(full, ['sink-1', 'sink-2']);
    expect(fields).toMatchObject({ sync_key: 'iam/admin-policy', enabled_state_override: 'Staging', event_sink_ids: ['sink-1', 'sink-2'], dedup_window_s: 0 });
    const back = definitionOfApiFields(fields, { eventSinkKeys: full.eventSinkKeys, tests: full.tests });
    expect(back).toEqual(full);
    expect(readRuleFile(printRuleFile(back)).definition).toEqual(full);
  });

  it('reads the state of a synced rule from enabled_state_synced when it has no override', () => {
    const fields = { ...apiFieldsOf(full, []), enabled_state_override: null, enabled_state_synced: 'Paused' as const };
    expect(definitionOfApiFields(fields).enabled).toBe('Paused');
  });

  it('gives the rule service an input its checks accept unchanged', () => {
    const input = ruleInputOf(full, ['sink-1']);
    const checked = checkRuleFields(input);
    expect(checked).toMatchObject({
      name: full.name,
      queryText: full.queryText,
      alertTemplate: full.alertTemplate,
      syncKey: 'iam/admin-policy',
      enabledStateOverride: 'Staging',
      eventSinkIds: ['sink-1'],
      dedupWindowS: 0,
      severity: 'Informational',
    });
  });
});

describe(`round trip of every public rule file (${scannerRulesNote})`, () => {
  const files = scannerRuleFiles();
  it.skipIf(files.length === 0)('file → definition → API object → file → definition is the identity', () => {
    let valid = 0;
    for (const file of files) {
      const definition = readRuleFile(file.text).definition;
      if (definition === null) {
        expect(knownInvalidScannerRules[file.path], file.path).toBeDefined();
        continue;
      }
      valid++;
      const back = definitionOfApiFields(apiFieldsOf(definition, []), { eventSinkKeys: definition.eventSinkKeys, tests: definition.tests });
      const reread = readRuleFile(printRuleFile(back));
      expect(reread.diagnostics, file.path).toEqual([]);
      expect(reread.definition, file.path).toEqual(definition);
    }
    expect(valid).toBe(files.length - Object.keys(knownInvalidScannerRules).length);
  });
});
