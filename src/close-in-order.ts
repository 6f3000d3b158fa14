/**
 * Runs shutdown steps in order, each even when one before it failed (a data dir that turned
 * read-only keeps its lock file and server.json, and the store and engine must still close);
 * the first failure is thrown once every step ran.
 */
export async function closeInOrder(steps: readonly (() => unknown)[]): Promise<void> {
  let failure: unknown = null;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== null) throw failure;
}
