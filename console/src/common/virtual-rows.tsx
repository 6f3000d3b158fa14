import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { visibleWindow } from './visible-window.js';

export interface VirtualRowsProps {
  readonly rowCount: number;
  readonly rowHeight: number;
  /** Draws row `index`; only rows in view (and a few around) are drawn. */
  readonly renderRow: (index: number, active: boolean) => ComponentChildren;
  /** The row the keyboard is on (arrow keys, Home, End, Page Up/Down); Enter opens it. */
  readonly activeRow: number;
  readonly onActiveRow: (index: number) => void;
  readonly onOpenRow?: (index: number) => void;
  readonly label: string;
  readonly header?: ComponentChildren;
  readonly class?: string;
}

/**
 * A grid of fixed-height rows under a header, scrolled, drawing only what is in view, so 100,000
 * rows scroll as smoothly as 100. One tab stop: the keyboard moves the active row
 * (aria-activedescendant); rows are numbered from 2, the header being row 1.
 */
export function VirtualRows(props: VirtualRowsProps) {
  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const element = viewport.current!;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    setHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  // New results start at the top.
  useEffect(() => {
    if (props.rowCount === 0 && viewport.current) viewport.current.scrollTop = 0;
  }, [props.rowCount === 0]);

  const onScroll = (): void => {
    // One render per frame however many scroll events arrive.
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setScrollTop(viewport.current?.scrollTop ?? 0);
    });
  };

  const keepInView = (index: number): void => {
    const element = viewport.current;
    if (!element) return;
    const top = index * props.rowHeight;
    const head = props.rowHeight; // the sticky header covers the first row's height of the view
    if (top < element.scrollTop) element.scrollTop = top;
    else if (top + props.rowHeight > element.scrollTop + element.clientHeight - head) element.scrollTop = top + props.rowHeight - element.clientHeight + head;
  };

  const onKeyDown = (event: KeyboardEvent): void => {
    const page = Math.max(1, Math.floor(height / props.rowHeight) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    let next: number | null = null;
    if (event.key in moves) next = props.activeRow + moves[event.key]!;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = props.rowCount - 1;
    else if (event.key === 'Enter' && props.onOpenRow && props.activeRow >= 0) {
      event.preventDefault();
      props.onOpenRow(props.activeRow);
      return;
    }
    if (next === null || props.rowCount === 0) return;
    event.preventDefault();
    const clamped = Math.max(0, Math.min(props.rowCount - 1, next));
    props.onActiveRow(clamped);
    keepInView(clamped);
  };

  const { first, last } = visibleWindow(scrollTop, height, props.rowHeight, props.rowCount);
  const rows: ComponentChildren[] = [];
  for (let i = first; i < last; i++) rows.push(props.renderRow(i, i === props.activeRow));
  const activeId = props.activeRow >= 0 && props.activeRow < props.rowCount ? `row-${props.activeRow}` : undefined;

  return (
    <div
      class={`virtual-rows ${props.class ?? ''}`}
      ref={viewport}
      onScroll={onScroll}
      role="grid"
      aria-label={props.label}
      aria-rowcount={props.rowCount + 1}
      aria-activedescendant={activeId}
      tabIndex={0}
      onKeyDown={onKeyDown}
    >
      <div role="rowgroup" class="grid-head">
        {props.header}
      </div>
      <div class="virtual-space" style={{ height: `${props.rowCount * props.rowHeight}px` }}>
        <div class="virtual-slice" style={{ transform: `translateY(${first * props.rowHeight}px)` }} role="rowgroup">
          {rows}
        </div>
      </div>
    </div>
  );
}

/** One row of a `VirtualRows` grid: the grid row's roles, position, selection and column layout around its cells. */
export function GridRow(props: { index: number; active: boolean; template: string; height: number; onClick: () => void; children: ComponentChildren }) {
  return (
    <div
      id={`row-${props.index}`}
      role="row"
      aria-rowindex={props.index + 2}
      aria-selected={props.active}
      class={`grid-row${props.active ? ' active' : ''}`}
      style={{ gridTemplateColumns: props.template, height: `${props.height}px` }}
      onClick={props.onClick}
    >
      {props.children}
    </div>
  );
}
