import { writeSync } from 'node:fs';

/**
 * Runs a process's shutdown (`close`) and makes sure the process ends within `timeoutMs` of the
 * start, whatever happens: when `close` takes too long, when it failed and left timers, sockets
 * or the engine open (the process would otherwise never end), or when it left a thread stuck in
 * the disk (a process that ends normally waits for its threads, and one stuck in a system call
 * or in the engine's signal handler would hold it forever). Then the process is ended by force:
 * SIGKILL, after one line on standard error saying why, for nothing else ends a process whose
 * threads do not.
 */
export async function shutDownWithin(close: () => Promise<void>, timeoutMs: number, holdsExit: () => boolean): Promise<void> {
  // unreferenced: a process that closed everything ends at once, without waiting for it
  setTimeout(() => endNow(`it did not end within ${timeoutMs / 1000} s of the signal`), timeoutMs).unref();
  await close();
  if (holdsExit()) endNow('the metadata store could not close its file (a stuck disk, or a data dir that cannot be written)');
}

function endNow(why: string): never {
  writeSync(2, `${JSON.stringify({ level: 50, time: Date.now(), pid: process.pid, msg: `exiting now: ${why}` })}\n`);
  process.kill(process.pid, 'SIGKILL');
  // SIGKILL ends the process before this line runs; the throw satisfies the type
  // eslint-disable-next-line no-restricted-syntax -- never runs: SIGKILL ended the process
  throw new Error('unreachable');
}
