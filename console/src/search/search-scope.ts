import type { FieldInfo, IndexFields, IndexObject, IndexStats } from '../api/types.js';
import type { ResolvedRange } from './time-range.js';

/** What the searched indexes hold, added up: the "all time" span and the empty-range notice use it. */
export interface ScopeStats {
  readonly events: number;
  readonly first: Date | null;
  readonly last: Date | null;
}

export function combineStats(stats: readonly IndexStats[]): ScopeStats {
  let events = 0;
  let first: Date | null = null;
  let last: Date | null = null;
  for (const s of stats) {
    events += s.events;
    if (s.first_event_time) {
      const t = new Date(s.first_event_time);
      if (!first || t < first) first = t;
    }
    if (s.last_event_time) {
      const t = new Date(s.last_event_time);
      if (!last || t > last) last = t;
    }
  }
  return { events, first, last };
}

/** "All time" over these stats: from the first event to just after the last (end is exclusive). */
export function allTimeSpan(stats: ScopeStats): ResolvedRange | null {
  if (!stats.first || !stats.last) return null;
  return { start: stats.first, end: new Date(stats.last.getTime() + 1) };
}

/** The field lists of several indexes as one: rows added, types merged, most common first. */
export function combineFields(lists: readonly IndexFields[]): IndexFields {
  const byPath = new Map<string, { types: Set<string>; rows: number }>();
  let events = 0;
  for (const list of lists) {
    events += list.events;
    for (const field of list.fields) {
      const entry = byPath.get(field.path) ?? { types: new Set<string>(), rows: 0 };
      for (const t of field.types) entry.types.add(t);
      entry.rows += field.rows;
      byPath.set(field.path, entry);
    }
  }
  const fields: FieldInfo[] = [...byPath].map(([path, e]) => ({ path, types: [...e.types], rows: e.rows }));
  fields.sort((a, b) => b.rows - a.rows || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { events, fields };
}

/** The indexes a search covers: the one chosen, or all of the tenant's. */
export function indexesInScope(indexes: readonly IndexObject[], chosen: string | null): IndexObject[] {
  return chosen === null ? [...indexes] : indexes.filter((i) => i.name === chosen);
}
