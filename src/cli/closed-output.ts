/**
 * A reader that goes away (`vigil … | head -1`) is not a failure of the command: like Unix tools,
 * vigil stops printing and says nothing. The command still finishes its work and closes its store
 * and engine cleanly (an ingest is not cut halfway), and exits with its own status.
 */

/** Makes writes to a stream whose reader closed (EPIPE) vanish instead of crashing the process. */
export function discardOutputOnceClosed(stream: NodeJS.WritableStream & { destroyed?: boolean }): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // EPIPE the first time; ERR_STREAM_DESTROYED for writes made after it.
    if (error.code === 'EPIPE' || error.code === 'ERR_STREAM_DESTROYED') return;
    throw error;
  });
}
