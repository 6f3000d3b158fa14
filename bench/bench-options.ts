/**
 * Reads a bench option that counts something (events, rounds, runs): a whole number of at least
 * 1, with `_` allowed between digits (`--events 5_000_000`). Anything else stops the bench with
 * the usage, rather than running zero rounds or NaN events.
 */
export function wholeNumberOption(name: string, text: string, usage: string): number {
  const n = Number(text.replace(/_/g, ''));
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} takes a whole number of at least 1, got ${text}\n${usage}`);
  return n;
}
