import type { FastifyInstance } from 'fastify';
import { messageOf } from '../../core/index.js';
import type { ApiMetrics } from '../metrics.js';

export interface ReadinessCheck {
  readonly name: string;
  readonly check: () => Promise<void>;
}

/** `/healthz` (the process answers), `/readyz` (its engine and store answer) and `/metrics`. */
export function registerHealthRoutes(app: FastifyInstance, checks: readonly ReadinessCheck[], metrics: ApiMetrics): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const results: Record<string, string> = {};
    let ready = true;
    for (const { name, check } of checks) {
      try {
        await check();
        results[name] = 'ok';
      } catch (error) {
        ready = false;
        results[name] = messageOf(error);
      }
    }
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: results });
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}
