import type { FastifyInstance } from 'fastify';
import { messageOf } from '../../core/index.js';
import type { ApiMetrics } from '../metrics.js';

export interface ReadinessCheck {
  readonly name: string;
  readonly check: () => Promise<void>;
}

/** How long one readiness check may take: a stuck disk or engine is an answer too (not ready). */
export const readinessTimeoutMs = 2000;

/**
 * `/healthz` (the process answers), `/readyz` (its engine, store and data dir answer: each check
 * runs at once, and one that does not answer within `readinessTimeoutMs` fails, so `/readyz`
 * itself always answers) and `/metrics`.
 */
export function registerHealthRoutes(app: FastifyInstance, checks: readonly ReadinessCheck[], metrics: ApiMetrics, timeoutMs = readinessTimeoutMs): void {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const outcomes = await Promise.all(checks.map(({ check }) => withTimeout(check, timeoutMs)));
    const results: Record<string, string> = {};
    checks.forEach(({ name }, i) => (results[name] = outcomes[i] ?? 'ok'));
    const ready = outcomes.every((outcome) => outcome === null);
    return reply.status(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', checks: results });
  });

  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    return reply.header('content-type', metrics.registry.contentType).send(await metrics.registry.metrics());
  });
}

/** Null when the check passes in time, else why not. */
async function withTimeout(check: () => Promise<void>, timeoutMs: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`did not answer within ${timeoutMs / 1000} s`), timeoutMs)));
  try {
    return await Promise.race([
      Promise.resolve()
        .then(check)
        .then(
          () => null,
          (error: unknown) => messageOf(error),
        ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
