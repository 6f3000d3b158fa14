import { parseRfc3339Ns } from '../../core/index.js';
import type { FileProblems } from './file-problems.js';
import { datasetFormats, type DatasetFormat, type RuleTestDefinition } from './rule-definition.js';
import { readDataset } from './rule-test-dataset.js';
import { readBoolean, readChoice, readNullableString, readString } from './yaml-values.js';
import { isScalar, mapEntries, seqItems, type YamlNode } from './yaml-source.js';

export const testFieldNames = ['name', 'dataset_inline', 'dataset_format', 'expected_detection_result', 'now_timestamp'] as const;
const requiredTestFields = ['name', 'dataset_inline', 'expected_detection_result'] as const;

/**
 * Reads the `tests` list (docs/interface.md 2.5 "Rule test", detections.md 3.3): every test's fields and
 * every line of its dataset, each problem at its position (a dataset line's problem at the line
 * in the file). Undefined when anything is wrong.
 */
export function readRuleTests(problems: FileProblems, node: YamlNode | null): RuleTestDefinition[] | undefined {
  if (node === null || (isScalar(node) && node.value === null)) return [];
  const items = seqItems(problems.source, node);
  if (items === null) {
    problems.error('tests must be a list of tests', problems.source.nodeSpan(node), 'tests');
    return undefined;
  }
  const tests: RuleTestDefinition[] = [];
  const names = new Map<string, number>();
  let ok = true;
  items.forEach((item, i) => {
    const { name, nameNode, test } = readTest(problems, item, `tests[${i}]`);
    // Names are compared whatever else is wrong with a test: every problem is reported at once.
    if (name !== undefined) {
      const earlier = names.get(name);
      if (earlier !== undefined) {
        problems.error(
          `tests[${i}].name ${JSON.stringify(name)} is already the name of tests[${earlier}]: test names must differ`,
          problems.source.nodeSpan(nameNode),
          `tests[${i}].name`,
        );
        ok = false;
      } else {
        names.set(name, i);
      }
    }
    if (test === undefined) ok = false;
    else tests.push(test);
  });
  return ok ? tests : undefined;
}

/** One test: its name when it has a usable one (for the duplicate check), and the test when it is wholly valid. */
interface ReadTest {
  readonly name: string | undefined;
  readonly nameNode: YamlNode | null;
  readonly test: RuleTestDefinition | undefined;
}

function readTest(problems: FileProblems, node: YamlNode | null, where: string): ReadTest {
  const entries = mapEntries(problems.source, node);
  if (entries === null) {
    problems.error(`${where} must be a map with name, dataset_inline and expected_detection_result`, problems.source.nodeSpan(node), where);
    return { name: undefined, nameNode: node, test: undefined };
  }
  problems.unknownKeys(node, testFieldNames, where);
  const errorsBefore = problems.errorCount;
  const byKey = new Map(entries.map((e) => [e.key, e.value]));
  // undefined: the key is absent; null: present with no value.
  const field = (key: string): YamlNode | null | undefined => (byKey.has(key) ? (byKey.get(key) ?? null) : undefined);
  for (const key of requiredTestFields) {
    if (field(key) === undefined) problems.error(`${where} is missing required field ${key}`, problems.source.nodeSpan(node), `${where}.${key}`);
  }
  // Each field given is checked even when another is missing.
  const nameNode = field('name');
  const name = nameNode === undefined ? undefined : readString(problems, nameNode, `${where}.name`);
  const usableName = name !== undefined && name.trim() !== '' ? name : undefined;
  if (name !== undefined && usableName === undefined) problems.error(`${where}.name must not be empty`, problems.source.nodeSpan(nameNode ?? null), `${where}.name`);
  const expectedNode = field('expected_detection_result');
  const expected = expectedNode === undefined ? undefined : readBoolean(problems, expectedNode, `${where}.expected_detection_result`);
  const nowNode = field('now_timestamp');
  const now = nowNode === undefined ? null : readNullableString(problems, nowNode, `${where}.now_timestamp`);
  if (typeof now === 'string' && parseRfc3339Ns(now) === null) {
    problems.error(
      `${where}.now_timestamp must be an RFC 3339 time such as "2026-05-15T00:03:00Z", got ${JSON.stringify(now)}`,
      problems.source.nodeSpan(nowNode ?? null),
      `${where}.now_timestamp`,
    );
  }
  const formatNode = field('dataset_format');
  const format: DatasetFormat | null | undefined =
    formatNode === undefined || (isScalar(formatNode) && formatNode.value === null) ? null : readChoice(problems, formatNode ?? null, `${where}.dataset_format`, datasetFormats);
  const datasetNode = field('dataset_inline');
  const dataset = datasetNode === undefined ? undefined : readString(problems, datasetNode, `${where}.dataset_inline`);
  if (dataset !== undefined && format !== undefined) checkDataset(problems, datasetNode ?? null, dataset, format ?? 'LegacyFlatten', where);
  const result = { name: usableName, nameNode: nameNode ?? node };
  if (problems.errorCount > errorsBefore || usableName === undefined || expected === undefined || now === undefined || format === undefined || dataset === undefined) {
    return { ...result, test: undefined };
  }
  return { ...result, test: { name: usableName, datasetInline: dataset, datasetFormat: format, expectedDetectionResult: expected, nowTimestamp: now } };
}

/** Records each dataset line's problem at that line of the file. */
function checkDataset(problems: FileProblems, node: YamlNode | null, text: string, format: DatasetFormat, where: string): void {
  const { events, problems: found } = readDataset(text, format);
  const field = `${where}.dataset_inline`;
  if (found.length === 0 && events.length === 0) {
    problems.error(`${field} holds no event: give one JSON object per line`, problems.source.nodeSpan(node), field);
    return;
  }
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  for (const problem of found) {
    const offset = (lineStarts[problem.line - 1] ?? 0) + problem.column - 1;
    const mapped = isScalar(node) ? problems.source.scalarPosition(node, offset) : { position: problems.source.nodeSpan(node).start, exact: false };
    const suffix = mapped.exact ? '' : ` (line ${problem.line} of the dataset)`;
    problems.error(`${field} line ${problem.line}: ${problem.message}${suffix}`, { start: mapped.position, end: mapped.position }, field);
  }
}
