import { LineCounter, isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node, type Pair, type Scalar } from 'yaml';
import { ErrorCodes, type Diagnostic, type Position, type Span } from '../../core/index.js';

/** A YAML node as the rule reader sees it: aliases already resolved. */
export type YamlNode = Node;

/**
 * One YAML text parsed with positions (YAML 1.2 core schema, duplicate keys refused). Gives the
 * span of any node or key, so every problem of a rule file can point at its line and column.
 */
export class YamlSource {
  readonly document: Document.Parsed;
  /** Syntax errors and warnings of the YAML itself, with positions. */
  readonly diagnostics: Diagnostic[];
  private readonly lines: LineCounter;

  constructor(readonly text: string) {
    this.lines = new LineCounter();
    this.document = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true, strict: true });
    this.diagnostics = [
      ...this.document.errors.map((e) => ({
        severity: 'error' as const,
        code: ErrorCodes.invalidArgument,
        message: yamlMessage(e.message),
        span: this.spanOf(e.pos[0], e.pos[1]),
      })),
      ...this.document.warnings.map((e) => ({ severity: 'warning' as const, code: 'yaml_warning', message: yamlMessage(e.message), span: this.spanOf(e.pos[0], e.pos[1]) })),
    ];
  }

  /** The 1-based position of an offset in the text. */
  position(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    const { line, col } = this.lines.linePos(clamped);
    // Before the first newline LineCounter answers line 0 for an empty counter; it is line 1.
    return { line: Math.max(1, line), column: Math.max(1, col), offset: clamped };
  }

  spanOf(start: number, end: number): Span {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }

  /** Where a node's value stands (its text, without trailing comments). */
  nodeSpan(node: YamlNode | null | undefined): Span {
    const range = node?.range;
    return range ? this.spanOf(range[0], range[1]) : this.spanOf(0, 0);
  }

  /** Where a map entry stands: its key, or its value when the key has no position. */
  pairSpan(pair: Pair): Span {
    const key = pair.key as YamlNode | null;
    return key?.range ? this.nodeSpan(key) : this.nodeSpan(pair.value as YamlNode | null);
  }

  /** A node with aliases followed to their anchors. */
  resolve(node: unknown): YamlNode | null {
    if (node === null || node === undefined) return null;
    if (isAlias(node)) return (node.resolve(this.document) as YamlNode | undefined) ?? null;
    return node as YamlNode;
  }

  /** The node's plain JavaScript value (maps become objects, sequences arrays). */
  valueOf(node: YamlNode | null): unknown {
    if (node === null) return null;
    return node.toJS(this.document, { maxAliasCount: 100 }) as unknown;
  }

  /**
   * Maps an offset inside a scalar's value to the file position it was read from. Exact for
   * literal blocks (`|`, `|-`, `|+` without an indentation digit), single-line plain scalars and
   * single-line quoted scalars without escapes; otherwise the start of the value (the caller then
   * also names the position inside the value).
   */
  scalarPosition(node: Scalar, valueOffset: number): { position: Position; exact: boolean } {
    const range = node.range;
    if (!range || typeof node.value !== 'string') return { position: this.position(range?.[0] ?? 0), exact: false };
    const [start, end] = range;
    const source = this.text.slice(start, end);
    const value = node.value;
    switch (node.type) {
      case 'BLOCK_LITERAL': {
        const offset = this.literalOffset(start, end, value, valueOffset);
        return offset === null ? { position: this.position(start), exact: false } : { position: this.position(offset), exact: true };
      }
      case 'PLAIN':
        if (!source.includes('\n')) return { position: this.position(start + valueOffset), exact: true };
        break;
      case 'QUOTE_DOUBLE':
      case 'QUOTE_SINGLE': {
        const inner = source.slice(1, -1);
        if (!inner.includes('\n') && inner === value) return { position: this.position(start + 1 + valueOffset), exact: true };
        break;
      }
      default:
        break;
    }
    return { position: this.position(start), exact: false };
  }

  /** The file offset of a literal block value's offset: its lines stand one to one in the file. */
  private literalOffset(start: number, end: number, value: string, valueOffset: number): number | null {
    const header = /^\|([+-]?)(\d?)([+-]?)/.exec(this.text.slice(start, end));
    if (header === null || header[2] !== '') return null;
    const contentStart = this.text.indexOf('\n', start) + 1;
    if (contentStart <= 0) return null;
    const sourceLines = this.text.slice(contentStart, end).split('\n');
    const firstContent = sourceLines.find((line) => line.trim() !== '');
    const indent = firstContent === undefined ? 0 : firstContent.length - firstContent.trimStart().length;
    const before = value.slice(0, valueOffset);
    const lineIndex = before.split('\n').length - 1;
    const column = valueOffset - (before.lastIndexOf('\n') + 1);
    let offset = contentStart;
    for (let i = 0; i < lineIndex; i++) {
      const line = sourceLines[i];
      if (line === undefined) return null;
      offset += line.length + 1;
    }
    return offset + indent + column;
  }
}

/** The entries of a map node, each with its key text; null when the node is not a map. */
export function mapEntries(source: YamlSource, node: YamlNode | null): { key: string; pair: Pair; value: YamlNode | null }[] | null {
  if (!isMap(node)) return null;
  return node.items.map((pair) => {
    const key = source.resolve(pair.key);
    return { key: isScalar(key) ? String(key.value) : String(source.valueOf(key)), pair, value: source.resolve(pair.value) };
  });
}

/** The items of a sequence node; null when the node is not a sequence. */
export function seqItems(source: YamlSource, node: YamlNode | null): (YamlNode | null)[] | null {
  if (!isSeq(node)) return null;
  return node.items.map((item) => source.resolve(item));
}

export { isMap, isScalar, isSeq };

// The library's messages start with a capital and often repeat the position; ours are lowercase.
function yamlMessage(message: string): string {
  const first = message.split('\n')[0] ?? message;
  const trimmed = first.replace(/ at line \d+, column \d+:?$/, '').replace(/\.$/, '');
  return `yaml: ${trimmed.charAt(0).toLowerCase()}${trimmed.slice(1)}`;
}
