import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiMetrics } from '../metrics.js';
import { registerHealthRoutes } from './health-routes.js';

describe('readiness', () => {
  it('is ready only when every check passes, and names the one that fails', async () => {
    let engineUp = true;
    const app = Fastify();
    registerHealthRoutes(
      app,
      [
        { name: 'engine', check: async () => { if (!engineUp) throw new Error('engine closed'); } },
        { name: 'store', check: async () => {} },
      ],
      new ApiMetrics(),
    );
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    engineUp = false;
    const notReady = await app.inject({ method: 'GET', url: '/readyz' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({ status: 'not ready', checks: { engine: 'engine closed', store: 'ok' } });
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    await app.close();
  });
});
