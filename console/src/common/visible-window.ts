/** The rows a scrolled list must render: those in view plus `overscan` on each side. */
export function visibleWindow(scrollTop: number, viewportHeight: number, rowHeight: number, rowCount: number, overscan = 8): { first: number; last: number } {
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(rowCount, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { first, last: Math.max(first, last) };
}
