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
        {
          name: 'engine',
          check: async () => {
            if (!engineUp) throw new Error('engine closed');
          },
        },
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

  it('answers 503 naming a check that does not answer in time, and runs the others meanwhile', async () => {
    const app = Fastify();
    let storeCalls = 0;
    registerHealthRoutes(
      app,
      [
        { name: 'engine', check: () => new Promise<void>(() => {}) },
        { name: 'store', check: async () => void storeCalls++ },
        {
          name: 'data_dir',
          check: async () => {
            throw new Error('the data dir cannot be written (EPERM)');
          },
        },
      ],
      new ApiMetrics(),
      50,
    );
    const notReady = await app.inject({ method: 'GET', url: '/readyz' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({
      status: 'not ready',
      checks: { engine: 'did not answer within 0.05 s', store: 'ok', data_dir: 'the data dir cannot be written (EPERM)' },
    });
    expect(storeCalls).toBe(1);
    await app.close();
  });
});
