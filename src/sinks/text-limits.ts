/** What ends a text that was cut to fit a channel's limit (detections.md E9). */
export const cutMarker = '… [truncated]';

/**
 * The text itself when it fits in `max` characters (UTF-16 units), else its beginning followed by
 * the cut marker, `max` units in all. A surrogate pair is never split.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= cutMarker.length) return cutMarker.slice(0, max);
  let end = max - cutMarker.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return text.slice(0, end) + cutMarker;
}

/** A value as text for people: null as empty, numbers in their shortest form. */
export function cellText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'number' ? String(value) : value;
}
