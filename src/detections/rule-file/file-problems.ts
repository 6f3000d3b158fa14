import { closestName, ErrorCodes, ValidationError, type Diagnostic, type Span } from '../../core/index.js';
import { isMap, isScalar, isSeq, mapEntries, type YamlNode, type YamlSource } from './yaml-source.js';

/**
 * The problems found in one rule file, each with its position (E14: errors for wrong types,
 * missing fields and bad values; warnings for unknown fields). Checks record and go on, so a
 * user sees every problem of a file at once.
 */
export class FileProblems {
  readonly diagnostics: Diagnostic[] = [];

  constructor(readonly source: YamlSource) {}

  error(message: string, span: Span, field?: string, code: string = ErrorCodes.invalidArgument): void {
    this.diagnostics.push({ severity: 'error', code, message, span, ...(field ? { field } : {}) });
  }

  warning(message: string, span: Span, field?: string): void {
    this.diagnostics.push({ severity: 'warning', code: 'unknown_field', message, span, ...(field ? { field } : {}) });
  }

  get errorCount(): number {
    return this.diagnostics.filter((d) => d.severity === 'error').length;
  }

  /**
   * Records a ValidationError of a check shared with the API (`checkRuleFields`, templates) at
   * the node its `field` names below `root`, e.g. `alert_template.info[2].value`. `fileKeys`
   * maps the API's top-level names to the spelling this file used (`dedup_window`).
   */
  validation(error: ValidationError, root: YamlNode | null, fileKeys: Readonly<Record<string, string>> = {}): void {
    const field = error.field ?? '';
    const node = locate(this.source, root, field, fileKeys);
    const top = /^[^.[]+/.exec(field)?.[0] ?? '';
    const fileKey = fileKeys[top];
    // The shared checks name the API field; say the one the file wrote.
    let message = fileKey && fileKey !== top && error.message.startsWith(top) ? fileKey + error.message.slice(top.length) : error.message;
    // Name the field in the text when the check did not (a template value's `{{ }}` problem), as
    // every other problem does and as the API's answers do.
    const fileField = fileKey ? fileKey + field.slice(top.length) : field;
    if (fileField !== '' && !message.includes(fileField)) message = `${fileField}: ${message}`;
    let span = this.source.nodeSpan(node);
    // A template value's check says where in the value (`unclosed '{{' at 1:3`): say where in the file.
    // Where it cannot be said exactly (a folded scalar), the problem is at the value's start and
    // the message keeps the position inside the value, never a second bare `at`.
    const inner = / at (\d+):(\d+)$/.exec(message);
    if (inner) {
      const mapped = isScalar(node) && typeof node.value === 'string' ? this.source.scalarPosition(node, offsetIn(node.value, Number(inner[1]), Number(inner[2]))) : null;
      if (mapped?.exact) {
        message = message.slice(0, inner.index);
        span = { start: mapped.position, end: mapped.position };
      } else {
        message = `${message.slice(0, inner.index)} (at ${inner[1]}:${inner[2]} of the value)`;
      }
    }
    this.error(message, span, field);
  }

  /** Warns about each key of a map that is not one of `known`, suggesting the nearest known key. */
  unknownKeys(node: YamlNode | null, known: readonly string[], where: string): void {
    for (const { key, pair } of mapEntries(this.source, node) ?? []) {
      if (known.includes(key)) continue;
      const near = closestName(key, known);
      this.warning(`unknown field ${JSON.stringify(key)}${where ? ` in ${where}` : ''} is ignored${near ? `; did you mean ${near}?` : ''}`, this.source.pairSpan(pair), key);
    }
  }
}

/**
 * The node a dotted field path names below `root` (`tests[1].name`), or the deepest node found on
 * the way when the path goes further than the file does.
 */
export function locate(source: YamlSource, root: YamlNode | null, path: string, fileKeys: Readonly<Record<string, string>> = {}): YamlNode | null {
  let node = root;
  let first = true;
  for (const match of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) {
    const [, name, index] = match;
    let next: YamlNode | null | undefined;
    if (name !== undefined && isMap(node)) {
      const wanted = first ? (fileKeys[name] ?? name) : name;
      next = mapEntries(source, node)?.find((entry) => entry.key === wanted)?.value;
    } else if (index !== undefined && isSeq(node)) {
      next = source.resolve(node.items[Number(index)]);
    } else if ((name === 'label' || name === 'value') && isSeq(node)) {
      // A template item in the deprecated [label, value] form: its fields are its two items.
      next = source.resolve(node.items[name === 'label' ? 0 : 1]);
    }
    first = false;
    if (next === undefined || next === null) return node;
    node = next;
  }
  return node;
}

/** The offset of a 1-based line and column in a text. */
function offsetIn(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) offset = text.indexOf('\n', offset) + 1;
  return offset + column - 1;
}

/** What a YAML node holds, for messages: `a list`, `a map`, `the number 5`, `"text"`, `nothing`. */
export function describeNode(node: YamlNode | null): string {
  if (node === null) return 'nothing';
  if (isMap(node)) return 'a map';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const value: unknown = node.value;
    if (value === null) return 'nothing (null)';
    if (typeof value === 'string') return `the text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    if (typeof value === 'number') return `the number ${value}`;
    if (typeof value === 'boolean') return `the boolean ${value}`;
    return String(value);
  }
  return 'an unexpected value';
}

/** Runs a shared check that throws ValidationError, recording the error where its field points. */
export function recordValidation<T>(problems: FileProblems, root: YamlNode | null, fileKeys: Readonly<Record<string, string>>, check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    problems.validation(error, root, fileKeys);
    return undefined;
  }
}

/** One problem of a file as a line of text: `<message> at <line>:<column>` (CONVENTIONS 4). */
export function formatFileProblem(diagnostic: Diagnostic): string {
  return diagnostic.span ? `${diagnostic.message} at ${diagnostic.span.start.line}:${diagnostic.span.start.column}` : diagnostic.message;
}
