import type { AlertTemplateRecord } from '../../domain/index.js';
import { checkRuleFields } from '../rule-input.js';
import { recordValidation, type FileProblems } from './file-problems.js';
import { isMap, isScalar, isSeq, mapEntries, seqItems, type YamlNode } from './yaml-source.js';

/**
 * Reads `alert_template` (docs/interface.md 2.6): the shapes are checked here, item by item with
 * positions (the API's body schema does this for JSON), then the shared template check (labels,
 * values, `{{ }}` expressions) runs on the value. Both forms are read; the definition holds the
 * current one. Null for `alert_template: null`, undefined after an error.
 */
export function readAlertTemplate(problems: FileProblems, root: YamlNode | null, node: YamlNode | null, fileKey: string): AlertTemplateRecord | null | undefined {
  if (node === null || (isScalar(node) && node.value === null)) return null;
  const errorsBefore = problems.errorCount;
  if (!isMap(node)) {
    problems.error(`${fileKey} must be a map with info and actions lists, or null`, problems.source.nodeSpan(node), fileKey);
    return undefined;
  }
  problems.unknownKeys(node, ['info', 'actions'], fileKey);
  for (const { key, value } of mapEntries(problems.source, node) ?? []) {
    if (key !== 'info' && key !== 'actions') continue;
    if (value === null || (isScalar(value) && value.value === null)) continue;
    const items = seqItems(problems.source, value);
    const where = `${fileKey}.${key}`;
    if (items === null) {
      problems.error(`${where} must be a list`, problems.source.nodeSpan(value), where);
      continue;
    }
    const known = key === 'info' ? ['label', 'value', 'use_for_dedup'] : ['label', 'value'];
    items.forEach((item, i) => {
      if (isSeq(item)) return; // the deprecated [label, value] pair: its length and types are the shared check's
      if (!isMap(item)) {
        problems.error(`${where}[${i}] must be a map with label and value`, problems.source.nodeSpan(item), `${where}[${i}]`);
        return;
      }
      problems.unknownKeys(item, known, `${where}[${i}]`);
      const dedup = mapEntries(problems.source, item)?.find((entry) => entry.key === 'use_for_dedup');
      if (dedup && !(isScalar(dedup.value) && typeof dedup.value.value === 'boolean')) {
        problems.error(`${where}[${i}].use_for_dedup must be true or false`, problems.source.nodeSpan(dedup.value), `${where}[${i}].use_for_dedup`);
      }
    });
  }
  if (problems.errorCount > errorsBefore) return undefined;
  const value = problems.source.valueOf(node) as Record<string, unknown>;
  const input = { info: value.info ?? undefined, actions: value.actions ?? undefined } as Parameters<typeof checkRuleFields>[0]['alertTemplate'];
  return recordValidation(problems, root, { alert_template: fileKey }, () => checkRuleFields({ alertTemplate: input }).alertTemplate);
}
