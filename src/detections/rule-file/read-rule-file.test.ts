import { describe, expect, it } from 'vitest';
import { formatFileProblem } from './file-problems.js';
import { readRuleFile } from './read-rule-file.js';

/** A valid file; `extra` lines are appended, `replace` swaps whole lines by their key. */
function file(options: { replace?: Record<string, string | null>; extra?: string[] } = {}): string {
  const lines: [string, string][] = [
    ['header', '# schema: https://scanner.dev/schema/scanner-detection-rule.v1.json'],
    ['name', 'name: Root console login'],
    ['description', 'description: Root logged in.'],
    ['severity', 'severity: High'],
    ['query_text', 'query_text: |-\n  eventName=ConsoleLogin\n  | stats count() as n by sourceIPAddress'],
    ['time_range_s', 'time_range_s: 300'],
    ['run_frequency_s', 'run_frequency_s: 60'],
  ];
  const out = lines.flatMap(([key, line]) => {
    const replaced = options.replace?.[key];
    if (replaced === undefined) return [line];
    return replaced === null ? [] : [replaced];
  });
  return [...out, ...(options.extra ?? [])].join('\n') + '\n';
}

/** The errors of a text as `message at line:column`. */
function errors(text: string): string[] {
  const check = readRuleFile(text);
  return check.diagnostics.filter((d) => d.severity === 'error').map(formatFileProblem);
}

describe('readRuleFile: a valid file', () => {
  it('reads every field, with defaults for the ones left out', () => {
    const check = readRuleFile(file());
    expect(check.diagnostics).toEqual([]);
    expect(check.schemaUrl).toBe('https://scanner.dev/schema/scanner-detection-rule.v1.json');
    expect(check.definition).toEqual({
      name: 'Root console login',
      description: 'Root logged in.',
      queryText: 'eventName=ConsoleLogin\n| stats count() as n by sourceIPAddress',
      runFrequencyS: 60,
      timeRangeS: 300,
      alertPerRow: false,
      alertTemplate: null,
      debounce: true,
      dedupWindowS: null,
      enabled: null,
      eventSinkKeys: [],
      pushKey: null,
      severity: 'High',
      tags: [],
      tests: [],
    });
  });

  it('reads the optional fields and the tests', () => {
    const check = readRuleFile(
      file({
        extra: [
          'enabled: Staging',
          'dedup_window_s: 3600',
          'debounce: false',
          'alert_per_row: true',
          'event_sink_keys: [high_severity_alerts]',
          'push_key: root-login',
          'tags: [source.cloudtrail, techniques.t1078.valid_accounts]',
          'alert_template:',
          '  info:',
          '    - {label: IP, value: "{{results_table.rows[0].sourceIPAddress}}", use_for_dedup: true}',
          '  actions:',
          '    - {label: Runbook, value: "https://runbooks.example.com/root"}',
          'tests:',
          '  - name: fires',
          '    now_timestamp: "2026-05-15T00:03:00Z"',
          '    dataset_format: RawJson',
          '    dataset_inline: |',
          '      {"@scnr":{"datetime":"2026-05-15T00:02:30Z"},"eventName":"ConsoleLogin","sourceIPAddress":"203.0.113.7"}',
          '    expected_detection_result: true',
        ],
      }),
    );
    expect(check.diagnostics).toEqual([]);
    expect(check.definition).toMatchObject({
      enabled: 'Staging',
      dedupWindowS: 3600,
      debounce: false,
      alertPerRow: true,
      eventSinkKeys: ['high_severity_alerts'],
      pushKey: 'root-login',
      tags: ['source.cloudtrail', 'techniques.t1078.valid_accounts'],
      alertTemplate: {
        info: [{ label: 'IP', value: '{{results_table.rows[0].sourceIPAddress}}', useForDedup: true }],
        actions: [{ label: 'Runbook', value: 'https://runbooks.example.com/root' }],
      },
      tests: [
        {
          name: 'fires',
          nowTimestamp: '2026-05-15T00:03:00Z',
          datasetFormat: 'RawJson',
          datasetInline: '{"@scnr":{"datetime":"2026-05-15T00:02:30Z"},"eventName":"ConsoleLogin","sourceIPAddress":"203.0.113.7"}\n',
          expectedDetectionResult: true,
        },
      ],
    });
  });

  it('needs no schema header', () => {
    const check = readRuleFile(file({ replace: { header: null } }));
    expect(check.definition).not.toBeNull();
    expect(check.schemaUrl).toBeNull();
  });
});

describe('readRuleFile: compatibility spellings (E14)', () => {
  it.each([
    ['enabled: true', { enabled: 'Active' }],
    ['enabled: false', { enabled: 'Paused' }],
    ['enabled: null', { enabled: null }],
    ['enabled: Paused', { enabled: 'Paused' }],
    ['dedup_window: 600', { dedupWindowS: 600 }],
    ['dedup_window_s: null', { dedupWindowS: null }],
    ['sync_key: legacy-key', { pushKey: 'legacy-key' }],
  ])('%s', (line, expected) => {
    const check = readRuleFile(file({ extra: [line] }));
    expect(check.diagnostics).toEqual([]);
    expect(check.definition).toMatchObject(expected);
  });

  it('reads severity Information as Informational', () => {
    expect(readRuleFile(file({ replace: { severity: 'severity: Information' } })).definition?.severity).toBe('Informational');
  });

  it('reads the deprecated pair-array template in the current form', () => {
    const check = readRuleFile(file({ extra: ['alert_template:', '  info: [[User, "{{userIdentity.arn}}"]]', '  actions: [[Docs, "https://example.com"]]'] }));
    expect(check.definition?.alertTemplate).toEqual({
      info: [{ label: 'User', value: '{{userIdentity.arn}}', useForDedup: false }],
      actions: [{ label: 'Docs', value: 'https://example.com' }],
    });
  });

  it('refuses a field given in both spellings, at the second one', () => {
    expect(errors(file({ extra: ['dedup_window_s: 60', 'dedup_window: 120'] }))).toEqual(['dedup_window and dedup_window_s are two spellings of dedup_window_s: give one at 11:1']);
    expect(errors(file({ extra: ['sync_key: a', 'push_key: b'] }))).toEqual(['push_key and sync_key are two spellings of push_key: give one at 11:1']);
  });

  it('names the spelling the file used in messages of shared checks', () => {
    expect(errors(file({ extra: ['dedup_window: -5'] }))).toEqual(['dedup_window must be a whole number of seconds from 0 to 4294967295, or null for the run frequency at 10:15']);
  });
});

describe('readRuleFile: unknown fields are warnings', () => {
  it('warns at the key, suggests the near field, and still gives the definition', () => {
    const check = readRuleFile(
      file({
        extra: [
          'severty: Low',
          'tests:',
          '  - name: t',
          '    dataset_inline: |',
          '      {"timestamp":"2026-01-01T00:00:00Z"}',
          '    expected_detection_result: false',
          '    expected: x',
        ],
      }),
    );
    expect(check.definition).not.toBeNull();
    expect(check.diagnostics.map((d) => [d.severity, formatFileProblem(d)])).toEqual([
      ['warning', 'unknown field "severty" is ignored; did you mean severity? at 10:1'],
      ['warning', 'unknown field "expected" in tests[0] is ignored at 16:5'],
    ]);
  });
});

describe('readRuleFile: errors name the field and point at it', () => {
  it.each<[string, { replace?: Record<string, string | null>; extra?: string[] }, string[]]>([
    ['a missing required field', { replace: { time_range_s: null } }, ['missing required field time_range_s at 2:1']],
    ['two missing fields', { replace: { name: null, description: null } }, ['missing required field name at 2:1', 'missing required field description at 2:1']],
    [
      'a lookback in part minutes',
      { replace: { time_range_s: 'time_range_s: 90' } },
      ['time_range_s must be a whole number of minutes in seconds, from 60 to 2592000, got 90 at 8:15'],
    ],
    ['a frequency over the lookback', { replace: { run_frequency_s: 'run_frequency_s: 600' } }, ['run_frequency_s (600) must be at most time_range_s (300) at 9:18']],
    ['a text lookback', { replace: { time_range_s: 'time_range_s: five minutes' } }, ['time_range_s must be a whole number of seconds, got the text "five minutes" at 8:15']],
    ['a fractional lookback', { replace: { time_range_s: 'time_range_s: 120.5' } }, ['time_range_s must be a whole number of seconds, got the number 120.5 at 8:15']],
    [
      'an unknown severity',
      { replace: { severity: 'severity: Severe' } },
      ['severity must be one of Unknown, Informational, Low, Medium, High, Critical, Fatal, Other, Information, got "Severe" at 4:11'],
    ],
    ['a name that is a list', { replace: { name: 'name: [a, b]' } }, ['name must be a string, got a list at 2:7']],
    ['an empty name', { replace: { name: 'name: "  "' } }, ['name must not be empty at 2:7']],
    ['an unknown state', { extra: ['enabled: On'] }, ['enabled must be one of Active, Staging, Paused or null (legacy: true for Active, false for Paused), got "On" at 10:10']],
    ['a boolean as text', { extra: ['alert_per_row: "yes"'] }, ['alert_per_row must be true or false, got the text "yes" at 10:16']],
    ['a tag that is a number', { extra: ['tags: [ok, 5]'] }, ['tags[1] must be a string, got the number 5 at 10:12']],
    ['a sink key that is empty', { extra: ['event_sink_keys: [""]'] }, ['event_sink_keys[0] must be a non-empty key of at most 200 characters at 10:18']],
    ['a template that is text', { extra: ['alert_template: hello'] }, ['alert_template must be a map with info and actions lists, or null at 10:17']],
    [
      'a template item without a value',
      { extra: ['alert_template:', '  info:', '    - label: x'] },
      ['alert_template.info[0].value must be a string of at most 4096 characters at 12:7'],
    ],
    ['an unclosed placeholder', { extra: ['alert_template:', '  info:', '    - {label: x, value: "{{ a"}'] }, ["alert_template.info[0].value: unclosed '{{' at 12:26"]],
    [
      'an expression with two values',
      { extra: ['alert_template: {info: [{label: L, value: "{{ a b }}"}]}'] },
      ["alert_template.info[0].value: unexpected 'b' in the expression at 10:49"],
    ],
    [
      'a bad expression in a folded value',
      { extra: ['alert_template:', '  info:', '    - label: x', '      value: >-', '        one', '        {{ a b }}'] },
      ["alert_template.info[0].value: unexpected 'b' in the expression (at 1:10 of the value) at 13:14"],
    ],
    [
      'an empty placeholder in an action pair',
      { extra: ['alert_template:', '  actions:', '    - [Open, "https://x.example.com/{{}}"]'] },
      ["alert_template.actions[0].value: empty '{{ }}' at 12:37"],
    ],
    [
      'use_for_dedup as text',
      { extra: ['alert_template:', '  info:', '    - {label: x, value: y, use_for_dedup: "true"}'] },
      ['alert_template.info[0].use_for_dedup must be true or false at 12:43'],
    ],
    ['tests that are a map', { extra: ['tests: {name: x}'] }, ['tests must be a list of tests at 10:8']],
  ])('%s', (_what, options, expected) => {
    expect(errors(file(options))).toEqual(expected);
  });

  it('reports every problem of a file at once, in file order', () => {
    expect(errors(file({ replace: { severity: 'severity: Bad', time_range_s: 'time_range_s: 30' }, extra: ['debounce: 1'] }))).toEqual([
      'severity must be one of Unknown, Informational, Low, Medium, High, Critical, Fatal, Other, Information, got "Bad" at 4:11',
      'time_range_s must be a whole number of minutes in seconds, from 60 to 2592000, got 30 at 8:15',
      'debounce must be true or false, got the number 1 at 10:11',
    ]);
  });

  it('refuses YAML that does not parse, at the problem', () => {
    expect(errors('name: [a, b\ndescription: x\n')).toEqual([expect.stringMatching(/^yaml: .* at \d+:\d+$/)]);
  });

  it('refuses duplicate keys and a file that is not a map', () => {
    expect(errors(file({ extra: ['name: again'] }))).toEqual([expect.stringMatching(/^yaml: map keys must be unique at 10:1$/)]);
    expect(errors('- a\n- b\n')).toEqual(['a rule file must be a YAML map of fields such as name, description and query_text at 1:1']);
    expect(errors('')).toEqual(['a rule file must be a YAML map of fields such as name, description and query_text at 1:1']);
  });
});

describe('readRuleFile: the query is parsed and analyzed, its problems at their place in the file', () => {
  it('in a literal block, at the line and column of the problem', () => {
    const text = file({ replace: { query_text: 'query_text: |-\n  eventName=ConsoleLogin\n  | countdistinct(user)\n  | where @q.count > 1' } });
    expect(errors(text)).toEqual(["query_text: column '@q.count' does not exist after 'countdistinct' (columns: @q.uniq) at 8:11"]);
  });

  it('in a plain and in a quoted scalar on one line', () => {
    expect(errors(file({ replace: { query_text: 'query_text: x != 3' } }))).toEqual([expect.stringMatching(/^query_text: '!=' is not a filter operator.* at 5:15$/)]);
    expect(errors(file({ replace: { query_text: 'query_text: "x | where"' } }))).toEqual([expect.stringMatching(/^query_text: expected a filter after 'where'.* at 5:23$/)]);
  });

  it('in a folded block, at the value with the position inside the query', () => {
    expect(errors(file({ replace: { query_text: 'query_text: >-\n  a\n  | where' } }))).toEqual([
      expect.stringMatching(/^query_text: expected a filter after 'where' \(at 1:10 of the query\).* at 5:13$/),
    ]);
  });

  it("takes the indexes a query names to exist, unless a tenant's indexes are given", () => {
    const text = file({ replace: { query_text: 'query_text: "@index=web x"' } });
    expect(readRuleFile(text).definition).not.toBeNull();
    const check = readRuleFile(text, { indexes: [{ id: 'i1', name: 'other', system: false }] });
    expect(check.diagnostics.map(formatFileProblem)).toEqual(["query_text: unknown index 'web' at 5:21"]);
  });

  it('refuses an empty query', () => {
    expect(errors(file({ replace: { query_text: 'query_text: ""' } }))).toEqual(['query_text must not be empty: a rule needs a query at 5:13']);
  });
});

describe('readRuleFile: tests and their datasets', () => {
  const tests = (...lines: string[]) => file({ extra: ['tests:', ...lines] });

  it('requires a name, a dataset and the expected result', () => {
    expect(errors(tests('  - name: t'))).toEqual([
      'tests[0] is missing required field dataset_inline at 11:5',
      'tests[0] is missing required field expected_detection_result at 11:5',
    ]);
  });

  it('checks now_timestamp, dataset_format and unique names', () => {
    const test = (name: string, more: string[]) => [
      `  - name: ${name}`,
      '    dataset_inline: \'{"timestamp":"2026-01-01T00:00:00Z"}\'',
      '    expected_detection_result: true',
      ...more,
    ];
    expect(errors(tests(...test('a', []), ...test('b', ['    now_timestamp: yesterday']), ...test('c', ['    dataset_format: Csv']), ...test('a', [])))).toEqual([
      'tests[1].now_timestamp must be an RFC 3339 time such as "2026-05-15T00:03:00Z", got "yesterday" at 17:20',
      'tests[2].dataset_format must be one of LegacyFlatten, RawJson, FlatTable, got the text "Csv" at 21:21',
      'tests[3].name "a" is already the name of tests[0]: test names must differ at 22:11',
    ]);
  });

  it('reports a repeated name also when the tests have other problems, and checks the fields a test has when another is missing', () => {
    const bad = (name: string) => [`  - name: ${name}`, '    now_timestamp: soon', "    dataset_inline: ''", '    expected_detection_result: true'];
    expect(errors(tests(...bad('bad now'), ...bad('bad now'), '  - name: bad now', '    now_timestamp: later'))).toEqual([
      'tests[0].now_timestamp must be an RFC 3339 time such as "2026-05-15T00:03:00Z", got "soon" at 12:20',
      'tests[0].dataset_inline holds no event: give one JSON object per line at 13:21',
      'tests[1].name "bad now" is already the name of tests[0]: test names must differ at 15:11',
      'tests[1].now_timestamp must be an RFC 3339 time such as "2026-05-15T00:03:00Z", got "soon" at 16:20',
      'tests[1].dataset_inline holds no event: give one JSON object per line at 17:21',
      'tests[2] is missing required field dataset_inline at 19:5',
      'tests[2] is missing required field expected_detection_result at 19:5',
      'tests[2].name "bad now" is already the name of tests[0]: test names must differ at 19:11',
      'tests[2].now_timestamp must be an RFC 3339 time such as "2026-05-15T00:03:00Z", got "later" at 20:20',
    ]);
  });

  it('points at the dataset line and column of a bad event', () => {
    expect(
      errors(
        tests(
          '  - name: t',
          '    expected_detection_result: true',
          '    dataset_inline: |',
          '      {"timestamp":"2026-01-01T00:00:00Z"}',
          '      {"timestamp":"2026-01-01T00:00:00Z",}',
          '      [1]',
          '      {"message":"no time"}',
          '      {"timestamp":"January"}',
        ),
      ),
    ).toEqual([
      expect.stringMatching(/^tests\[0\]\.dataset_inline line 2: invalid JSON: .* at 15:43$/),
      'tests[0].dataset_inline line 3: an event must be a JSON object, got an array at 16:7',
      'tests[0].dataset_inline line 4: the event has no time: give @scnr.datetime (or @svc.datetime, or a top-level timestamp) as RFC 3339 at 17:7',
      'tests[0].dataset_inline line 5: timestamp must be an RFC 3339 time such as "2026-05-15T00:02:30Z", got "January" at 18:7',
    ]);
  });

  it('refuses nested values in a FlatTable dataset and an empty dataset', () => {
    expect(
      errors(
        tests(
          '  - name: t',
          '    dataset_format: FlatTable',
          '    expected_detection_result: true',
          '    dataset_inline: |',
          '      {"@scnr.datetime":"2026-01-01T00:00:00Z","a.b":1}',
          '      {"@scnr.datetime":"2026-01-01T00:00:00Z","a":{"b":1}}',
          '  - name: u',
          '    expected_detection_result: true',
          '    dataset_inline: ""',
        ),
      ),
    ).toEqual([
      'tests[0].dataset_inline line 2: FlatTable events are flat column maps: "a" holds an object; write its columns as "a.x" keys or use dataset_format: RawJson at 16:7',
      'tests[1].dataset_inline holds no event: give one JSON object per line at 19:21',
    ]);
  });
});

describe('RuleFileCheck.spanOf', () => {
  it('locates a field of the file, whatever spelling it used', () => {
    const check = readRuleFile(file({ extra: ['event_sink_keys: [a, b]', 'sync_key: k'] }));
    expect(check.spanOf('event_sink_keys[1]')?.start).toMatchObject({ line: 10, column: 22 });
    expect(check.spanOf('push_key')?.start).toMatchObject({ line: 11, column: 11 });
  });
});
