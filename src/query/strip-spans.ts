/** `T` without its `span` fields, at any depth. */
export type WithoutSpans<T> = T extends readonly (infer U)[]
  ? readonly WithoutSpans<U>[]
  : T extends object
    ? { readonly [K in keyof T as K extends 'span' ? never : K]: WithoutSpans<T[K]> }
    : T;

/**
 * A copy of a syntax tree (or any plain data) without `span` fields, for comparing trees by
 * meaning: `stripSpans(parse(print(q)))` equals `stripSpans(q)`.
 */
export function stripSpans<T>(value: T): WithoutSpans<T> {
  return strip(value) as WithoutSpans<T>;
}

function strip(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strip);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) if (key !== 'span') out[key] = strip(child);
  return out;
}
