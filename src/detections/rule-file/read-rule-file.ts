import { ValidationError, type Diagnostic, type Position, type Span } from '../../core/index.js';
import type { EnabledState, Severity } from '../../domain/index.js';
import type { IndexInfo } from '../../query/index.js';
import { enabledStates } from '../enabled-state.js';
import { checkRuleFields, ruleLimits } from '../rule-input.js';
import { checkRuleQuery, indexesNamedIn } from '../rule-query-check.js';
import { normalizeSeverity } from '../severity.js';
import { FileProblems, locate, recordValidation } from './file-problems.js';
import { readAlertTemplate } from './read-alert-template.js';
import { readRuleTests } from './read-rule-tests.js';
import { definitionDefaults, type RuleDefinition } from './rule-definition.js';
import { readBoolean, readInteger, readNullableInteger, readNullableString, readString, readStringList } from './yaml-values.js';
import { isScalar, mapEntries, YamlSource, type YamlNode } from './yaml-source.js';

/** The fields of a rule file (docs/interface.md 2.5), in the order files are printed. */
const ruleFileFields = [
  'name',
  'description',
  'enabled',
  'severity',
  'query_text',
  'time_range_s',
  'run_frequency_s',
  'dedup_window_s',
  'debounce',
  'alert_per_row',
  'event_sink_keys',
  'push_key',
  'tags',
  'alert_template',
  'tests',
] as const;
type RuleFileField = (typeof ruleFileFields)[number];

/** Compatibility spellings (E14) and the field each stands for. */
const ruleFileAliases: Readonly<Record<string, RuleFileField>> = { dedup_window: 'dedup_window_s', sync_key: 'push_key' };

const requiredFields: readonly RuleFileField[] = ['name', 'description', 'query_text', 'time_range_s', 'run_frequency_s'];

/** The `# schema: <url>` first line that Scanner-style rule files carry (E14). */
const schemaHeader = /^#\s*schema:\s*(\S+)\s*$/;

export interface RuleFileOptions {
  /**
   * The indexes the query may name: a tenant's, when the file is about to become one of its
   * rules. Absent: every index the query names is taken to exist (the file is checked on its own).
   */
  readonly indexes?: readonly IndexInfo[];
}

/** What reading a rule file found: the definition when it has no error, and every problem. */
export interface RuleFileCheck {
  readonly definition: RuleDefinition | null;
  /** Errors and warnings, each with its span in the file, in file order. */
  readonly diagnostics: readonly Diagnostic[];
  /** The URL of a `# schema:` first line, or null. */
  readonly schemaUrl: string | null;
  /** Where a field stands in the file (`event_sink_keys[1]`, `tests[0].name`), for later checks' messages. */
  spanOf(field: string): Span | null;
}

/**
 * Reads and checks a rule file (YAML, docs/interface.md 2.5 with the compatibility spellings of E14):
 * types, required fields, minute granularity, severities, templates, tests and their datasets,
 * and the query (parsed and analyzed, its problems at their position inside the file). Unknown
 * fields are warnings. Pure: no I/O.
 */
export function readRuleFile(text: string, options: RuleFileOptions = {}): RuleFileCheck {
  const source = new YamlSource(text);
  const problems = new FileProblems(source);
  const schemaUrl = schemaHeader.exec(text.split('\n', 1)[0] ?? '')?.[1] ?? null;
  problems.diagnostics.push(...source.diagnostics);
  if (problems.errorCount > 0) return done(problems, null, schemaUrl);
  const root = source.resolve(source.document.contents);
  const entries = mapEntries(source, root);
  if (entries === null) {
    problems.error('a rule file must be a YAML map of fields such as name, description and query_text', source.nodeSpan(root));
    return done(problems, null, schemaUrl);
  }

  // Which key the file used for each field; a field and its legacy spelling together is an error.
  const given = new Map<RuleFileField, { key: string; value: YamlNode | null }>();
  for (const { key, pair, value } of entries) {
    const field = (ruleFileFields as readonly string[]).includes(key) ? (key as RuleFileField) : ruleFileAliases[key];
    if (field === undefined) continue;
    const earlier = given.get(field);
    if (earlier !== undefined) {
      problems.error(`${key} and ${earlier.key} are two spellings of ${field}: give one`, source.pairSpan(pair), field);
      continue;
    }
    given.set(field, { key, value });
  }
  problems.unknownKeys(root, [...ruleFileFields, ...Object.keys(ruleFileAliases)], '');
  for (const field of requiredFields) {
    if (!given.has(field)) problems.error(`missing required field ${field}`, startOf(source, root), field);
  }

  const fileKeys: Record<string, string> = {
    ...(given.has('dedup_window_s') ? { dedup_window_s: given.get('dedup_window_s')!.key } : {}),
    ...(given.has('push_key') ? { sync_key: given.get('push_key')!.key } : {}),
  };
  const node = (field: RuleFileField): YamlNode | null => given.get(field)?.value ?? null;
  const read = <T>(field: RuleFileField, reader: (node: YamlNode | null, key: string) => T | undefined): T | undefined => {
    const entry = given.get(field);
    return entry === undefined ? undefined : reader(entry.value, entry.key);
  };
  const check = <T>(run: () => T): T | undefined => recordValidation(problems, root, fileKeys, run);

  const name = read('name', (n, k) => readString(problems, n, k));
  if (name !== undefined) check(() => checkRuleFields({ name }));
  const description = read('description', (n, k) => readString(problems, n, k));
  if (description !== undefined) check(() => checkRuleFields({ description }));
  const queryText = read('query_text', (n, k) => readString(problems, n, k));
  if (queryText !== undefined) checkQuery(problems, node('query_text'), queryText, options.indexes);
  const timeRangeS = read('time_range_s', (n, k) => readInteger(problems, n, k));
  const rangeOk = timeRangeS !== undefined && check(() => checkRuleFields({ timeRangeS })) !== undefined;
  const runFrequencyS = read('run_frequency_s', (n, k) => readInteger(problems, n, k));
  const frequencyOk = runFrequencyS !== undefined && check(() => checkRuleFields({ runFrequencyS })) !== undefined;
  if (rangeOk && frequencyOk) check(() => checkRuleFields({ timeRangeS, runFrequencyS }));
  const dedupWindowS = read('dedup_window_s', (n, k) => readNullableInteger(problems, n, k));
  if (dedupWindowS !== undefined) check(() => checkRuleFields({ dedupWindowS }));
  const debounce = read('debounce', (n, k) => readBoolean(problems, n, k));
  const alertPerRow = read('alert_per_row', (n, k) => readBoolean(problems, n, k));
  const enabled = read('enabled', (n, k) => readEnabled(problems, n, k));
  const severity = read('severity', (n, k) => readSeverity(problems, n, k));
  const pushKey = read('push_key', (n, k) => readNullableString(problems, n, k));
  if (typeof pushKey === 'string') check(() => checkRuleFields({ syncKey: pushKey }));
  const tags = read('tags', (n, k) => readStringList(problems, n, k));
  if (tags !== undefined) check(() => checkRuleFields({ tags }));
  const eventSinkKeys = read('event_sink_keys', (n, k) => readSinkKeys(problems, n, k));
  const alertTemplate = read('alert_template', (n, k) => readAlertTemplate(problems, root, n, k));
  const tests = read('tests', (n) => readRuleTests(problems, n));

  if (problems.errorCount > 0) return done(problems, null, schemaUrl);
  const definition: RuleDefinition = {
    name: name ?? '',
    description: description ?? '',
    queryText: queryText ?? '',
    runFrequencyS: runFrequencyS ?? 0,
    timeRangeS: timeRangeS ?? 0,
    alertPerRow: alertPerRow ?? definitionDefaults.alertPerRow,
    alertTemplate: alertTemplate ?? definitionDefaults.alertTemplate,
    debounce: debounce ?? definitionDefaults.debounce,
    dedupWindowS: dedupWindowS ?? definitionDefaults.dedupWindowS,
    enabled: enabled ?? definitionDefaults.enabled,
    eventSinkKeys: eventSinkKeys ?? definitionDefaults.eventSinkKeys,
    pushKey: pushKey ?? definitionDefaults.pushKey,
    severity: severity ?? definitionDefaults.severity,
    tags: tags ?? definitionDefaults.tags,
    tests: tests ?? definitionDefaults.tests,
  };
  return done(problems, definition, schemaUrl);
}

function done(problems: FileProblems, definition: RuleDefinition | null, schemaUrl: string | null): RuleFileCheck {
  const diagnostics = [...problems.diagnostics].sort((a, b) => (a.span?.start.offset ?? 0) - (b.span?.start.offset ?? 0));
  const { source } = problems;
  const spanOf = (field: string): Span | null => {
    const root = source.resolve(source.document.contents);
    const top = /^[^.[]+/.exec(field)?.[0] ?? '';
    const used = Object.entries(ruleFileAliases).find(([alias, canonical]) => canonical === top && mapEntries(source, root)?.some((e) => e.key === alias));
    const node = locate(source, root, field, used ? { [top]: used[0] } : {});
    return node === null ? null : source.nodeSpan(node);
  };
  return { definition, diagnostics, schemaUrl, spanOf };
}

function startOf(source: YamlSource, root: YamlNode | null): { start: Position; end: Position } {
  const start = source.nodeSpan(root).start;
  return { start, end: start };
}

/** `Active`, `Staging`, `Paused`, null, or the legacy booleans of E14 (true: Active, false: Paused). */
function readEnabled(problems: FileProblems, node: YamlNode | null, key: string): EnabledState | null | undefined {
  const value: unknown = node === null ? null : isScalar(node) ? node.value : undefined;
  if (value === null) return null;
  if (value === true) return 'Active';
  if (value === false) return 'Paused';
  if (typeof value === 'string' && (enabledStates as readonly string[]).includes(value)) return value as EnabledState;
  problems.error(
    `${key} must be one of ${enabledStates.join(', ')} or null (legacy: true for Active, false for Paused), got ${JSON.stringify(value ?? 'a list or map')}`,
    problems.source.nodeSpan(node),
    key,
  );
  return undefined;
}

function readSeverity(problems: FileProblems, node: YamlNode | null, key: string): Severity | undefined {
  const text = readString(problems, node, key);
  if (text === undefined) return undefined;
  try {
    return normalizeSeverity(text, key);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems.error(error.message, problems.source.nodeSpan(node), key);
    return undefined;
  }
}

/** Symbolic sink names: non-empty, each at most 200 characters, at most as many as a rule's sinks. */
function readSinkKeys(problems: FileProblems, node: YamlNode | null, key: string): string[] | undefined {
  const keys = readStringList(problems, node, key);
  if (keys === undefined) return undefined;
  if (keys.length > ruleLimits.eventSinks) {
    problems.error(`${key} must name at most ${ruleLimits.eventSinks} keys`, problems.source.nodeSpan(node), key);
    return undefined;
  }
  const bad = keys.findIndex((k) => k.trim() === '' || k.length > 200);
  if (bad >= 0) {
    problems.error(`${key}[${bad}] must be a non-empty key of at most 200 characters`, problems.source.nodeSpan(node), `${key}[${bad}]`);
    return undefined;
  }
  return keys;
}

/** The shared query check; each problem of the query is reported at its position in the file. */
function checkQuery(problems: FileProblems, node: YamlNode | null, text: string, indexes: readonly IndexInfo[] | undefined): void {
  try {
    checkRuleQuery(text, indexes ?? indexesNamedIn);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const located = error.diagnostics.filter((d) => d.span !== undefined);
    if (located.length === 0 || !isScalar(node)) {
      problems.error(error.message, problems.source.nodeSpan(node), 'query_text');
      return;
    }
    for (const diagnostic of located) {
      const span = diagnostic.span!;
      const start = problems.source.scalarPosition(node, span.start.offset);
      const end = problems.source.scalarPosition(node, span.end.offset);
      const hint = (diagnostic as { hint?: unknown }).hint;
      const inQuery = start.exact ? '' : ` (at ${span.start.line}:${span.start.column} of the query)`;
      problems.error(
        `query_text: ${diagnostic.message}${inQuery}${typeof hint === 'string' ? `; hint: ${hint}` : ''}`,
        { start: start.position, end: end.exact ? end.position : start.position },
        'query_text',
        diagnostic.code,
      );
    }
  }
}
