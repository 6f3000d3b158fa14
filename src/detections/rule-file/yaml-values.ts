import { describeNode, type FileProblems } from './file-problems.js';
import { isScalar, seqItems, type YamlNode } from './yaml-source.js';

/**
 * Typed reads of YAML values. Each returns the value, or undefined after recording an error that
 * names the field, says what was expected and what the file holds, at the value's position.
 */

/** A scalar's value, or undefined for a map or a list. */
function scalarValue(node: YamlNode | null): { value: unknown } | undefined {
  if (node === null) return { value: null };
  return isScalar(node) ? { value: node.value } : undefined;
}

function wrongType(problems: FileProblems, node: YamlNode | null, field: string, expected: string): undefined {
  problems.error(`${field} must be ${expected}, got ${describeNode(node)}`, problems.source.nodeSpan(node), field);
  return undefined;
}

export function readString(problems: FileProblems, node: YamlNode | null, field: string): string | undefined {
  const scalar = scalarValue(node);
  return typeof scalar?.value === 'string' ? scalar.value : wrongType(problems, node, field, 'a string');
}

/** A string, or null when the value is empty or `null`. */
export function readNullableString(problems: FileProblems, node: YamlNode | null, field: string): string | null | undefined {
  const scalar = scalarValue(node);
  if (scalar?.value === null) return null;
  return typeof scalar?.value === 'string' ? scalar.value : wrongType(problems, node, field, 'a string or null');
}

/** An integer; the range is the shared checks' business, which word their own messages. */
export function readInteger(problems: FileProblems, node: YamlNode | null, field: string, unit = 'seconds'): number | undefined {
  const scalar = scalarValue(node);
  return typeof scalar?.value === 'number' && Number.isInteger(scalar.value) ? scalar.value : wrongType(problems, node, field, `a whole number of ${unit}`);
}

export function readNullableInteger(problems: FileProblems, node: YamlNode | null, field: string): number | null | undefined {
  const scalar = scalarValue(node);
  if (scalar?.value === null) return null;
  return typeof scalar?.value === 'number' && Number.isInteger(scalar.value) ? scalar.value : wrongType(problems, node, field, 'a whole number of seconds or null');
}

export function readBoolean(problems: FileProblems, node: YamlNode | null, field: string): boolean | undefined {
  const scalar = scalarValue(node);
  return typeof scalar?.value === 'boolean' ? scalar.value : wrongType(problems, node, field, 'true or false');
}

/** A list of strings; each item that is not one is an error of its own. Empty or null is an empty list. */
export function readStringList(problems: FileProblems, node: YamlNode | null, field: string): string[] | undefined {
  if (node === null || (isScalar(node) && node.value === null)) return [];
  const items = seqItems(problems.source, node);
  if (items === null) return wrongType(problems, node, field, 'a list of strings');
  const out: string[] = [];
  let ok = true;
  items.forEach((item, i) => {
    const value = readString(problems, item, `${field}[${i}]`);
    if (value === undefined) ok = false;
    else out.push(value);
  });
  return ok ? out : undefined;
}

/** One of `values` (a string), e.g. a severity or a dataset format. */
export function readChoice<T extends string>(problems: FileProblems, node: YamlNode | null, field: string, values: readonly T[]): T | undefined {
  const scalar = scalarValue(node);
  if (typeof scalar?.value === 'string' && (values as readonly string[]).includes(scalar.value)) return scalar.value as T;
  return wrongType(problems, node, field, `one of ${values.join(', ')}`);
}
