/** The recent queries of this browser, newest first, without repeats. */
export function withQuery(history: readonly string[], query: string, limit = 20): string[] {
  const trimmed = query.trim();
  if (trimmed === '') return [...history];
  return [trimmed, ...history.filter((q) => q !== trimmed)].slice(0, limit);
}

const storageKey = 'vigil.query_history';

/** Kept in localStorage per tenant (queries are the user's own, not secrets). */
export function queryHistoryStore(storage: Storage, tenantId: string): { read(): string[]; add(query: string): string[] } {
  const key = `${storageKey}.${tenantId}`;
  const read = (): string[] => {
    try {
      const value: unknown = JSON.parse(storage.getItem(key) ?? '[]');
      return Array.isArray(value) ? value.filter((q): q is string => typeof q === 'string') : [];
    } catch {
      return [];
    }
  };
  return {
    read,
    add(query) {
      const next = withQuery(read(), query);
      storage.setItem(key, JSON.stringify(next));
      return next;
    },
  };
}
