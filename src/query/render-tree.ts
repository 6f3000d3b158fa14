/**
 * A readable, stable rendering of a syntax tree, for golden files and `--explain`: an S-expression with one node
 * per `(kind ...)`, spans left out, short nodes on one line and long ones broken over indented
 * lines. Every field is shown, so a golden file pins the whole tree; fields holding plain values
 * (and arrays) are labelled, except the obvious `op`.
 *
 *     (match (column bare "status") ":" (valueOr operands=[(string bare "a") (string bare "b")]))
 */
type Doc = string | { readonly open: string; readonly items: readonly Doc[]; readonly close: string; readonly spaced: boolean };

const width = 96;

export function renderTree(node: unknown): string {
  return layout(toDoc(node), 0);
}

function toDoc(value: unknown): Doc {
  if (value === null || typeof value !== 'object') return typeof value === 'string' ? JSON.stringify(value) : String(value);
  if (Array.isArray(value)) return { open: '[', items: value.map(toDoc), close: ']', spaced: false };
  const node = value as Record<string, unknown>;
  const kind = String(node.kind);
  switch (kind) {
    case 'string':
      return `(string ${String(node.quote)} ${(node.segments as string[]).map((s) => JSON.stringify(s)).join(' * ')})`;
    case 'number':
      return `(number ${String(node.text)})`;
    case 'column': {
      const parts = (node.parts as { kind: string; text?: string }[]).map((p) => (p.kind === 'text' ? JSON.stringify(p.text) : p.kind === 'star' ? '*' : '**'));
      return `(column ${String(node.quote)} ${parts.join(' ')})`;
    }
    default: {
      const items: Doc[] = [];
      for (const [key, child] of Object.entries(node)) {
        if (key === 'kind' || key === 'span') continue;
        const doc = toDoc(child);
        if (Array.isArray(child)) items.push({ ...(doc as Exclude<Doc, string>), open: `${key}=[` });
        else if (typeof doc === 'string' && key !== 'op' && (child === null || typeof child !== 'object')) items.push(`${key}=${doc}`);
        else items.push(doc);
      }
      return { open: `(${kind}`, items, close: ')', spaced: true };
    }
  }
}

function flat(doc: Doc): string {
  if (typeof doc === 'string') return doc;
  const inner = doc.items.map(flat);
  return doc.open + (doc.spaced ? inner.map((s) => ` ${s}`).join('') : inner.join(' ')) + doc.close;
}

function layout(doc: Doc, indent: number): string {
  const oneLine = flat(doc);
  if (typeof doc === 'string' || indent + oneLine.length <= width || doc.items.length === 0) return oneLine;
  const pad = ' '.repeat(indent + 2);
  return doc.open + doc.items.map((item) => `\n${pad}${layout(item, indent + 2)}`).join('') + doc.close;
}
