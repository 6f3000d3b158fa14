import type { FastifyReply } from 'fastify';

/** A signal that aborts when the client hangs up before its answer is written: its work in the engine stops. */
export function abortOnHangUp(reply: FastifyReply): AbortSignal {
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  return abort.signal;
}
