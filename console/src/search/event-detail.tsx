import type { Row } from '../api/types.js';
import { eventTree, type EventNode } from './event-tree.js';

export interface EventDetailProps {
  readonly row: Row;
  readonly onFilter: (column: string, value: string | number, negate: boolean) => void;
  readonly onToggleColumn: (column: string) => void;
  readonly chosenColumns: readonly string[];
  readonly onClose: () => void;
}

/** One event in full as a JSON tree; each value can be added to the query (`=` or `not`) or shown as a column. */
export function EventDetail(props: EventDetailProps) {
  const tree = eventTree(props.row);
  const system = Object.entries(props.row).filter(([c]) => c.startsWith('@'));
  return (
    <aside class="event-detail" aria-label="Event">
      <header>
        <h2>Event</h2>
        <button type="button" class="secondary" onClick={props.onClose}>
          Close
        </button>
      </header>
      <ul class="json-tree" role="tree" aria-label="Event fields">
        {[...tree.entries].map(([key, node]) => (
          <TreeNode key={key} name={key} node={node} {...props} />
        ))}
      </ul>
      <details class="system-columns">
        <summary>System columns</summary>
        <dl>
          {system.map(([c, v]) => (
            <div key={c}>
              <dt>{c}</dt>
              <dd>{String(v)}</dd>
            </div>
          ))}
        </dl>
      </details>
    </aside>
  );
}

function TreeNode(props: EventDetailProps & { name: string; node: EventNode }) {
  const { node, name } = props;
  if (node.kind === 'leaf') {
    const value = node.value;
    const filterable = typeof value === 'string' || typeof value === 'number';
    return (
      <li role="treeitem" class="leaf">
        <span class="key">{name}</span>:{' '}
        <span class={`value ${value === null ? 'null' : typeof value}`}>{value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : String(value)}</span>
        <span class="value-actions">
          {filterable && (
            <>
              <button
                type="button"
                class="icon"
                title={`Filter for ${node.column} = this value`}
                aria-label={`Filter for ${node.column} = ${String(value)}`}
                onClick={() => props.onFilter(node.column, value, false)}
              >
                =
              </button>
              <button
                type="button"
                class="icon"
                title={`Filter out ${node.column} = this value`}
                aria-label={`Filter out ${node.column} = ${String(value)}`}
                onClick={() => props.onFilter(node.column, value, true)}
              >
                ≠
              </button>
            </>
          )}
          <button
            type="button"
            class="icon"
            aria-pressed={props.chosenColumns.includes(node.column)}
            title={`Show ${node.column} as a column`}
            aria-label={`Show ${node.column} as a column`}
            onClick={() => props.onToggleColumn(node.column)}
          >
            ▦
          </button>
        </span>
      </li>
    );
  }
  const children = node.kind === 'object' ? [...node.entries].map(([k, v]) => [k, v] as const) : [...node.items].map(([i, v]) => [String(i), v] as const);
  return (
    <li role="treeitem" aria-expanded="true" class="branch">
      <span class="key">{name}</span>
      <span class="bracket">{node.kind === 'array' ? ' [' : ' {'}</span>
      <ul role="group">
        {children.map(([k, v]) => (
          <TreeNode key={k} {...props} name={k} node={v} />
        ))}
      </ul>
      <span class="bracket">{node.kind === 'array' ? ']' : '}'}</span>
    </li>
  );
}
