import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../../core/index.js';
import type { Engine } from '../engine.js';
import { schemaVersion } from '../schema.js';
import { describeCancellationContract } from './cancellation-contract.js';
import { describeCatalogContract } from './catalog-contract.js';
import { describeDeletionContract } from './deletion-contract.js';
import { describeRoundTripContract } from './round-trip-contract.js';

/**
 * The behaviour every Engine implementation owes the rest of the service. `makeEngine` returns
 * a new, not yet initialized engine over the implementation's test store; it is called once for
 * the suite and again for the lifecycle checks.
 */
export function describeEngineContract(name: string, makeEngine: () => Promise<Engine>): void {
  describe(`engine contract: ${name}`, () => {
    let engine: Engine | undefined;
    const current = (): Engine => {
      if (!engine) throw new Error('engine not opened');
      return engine;
    };

    beforeAll(async () => {
      engine = await makeEngine();
      await engine.init();
    });

    afterAll(async () => {
      await engine?.close();
    });

    describe('lifecycle', () => {
      it('init is idempotent and records the schema version once', async () => {
        await current().init();
        await Promise.all([current().init(), current().init()]);
        const result = await current().query<{ n: string; version: number }>(
          'SELECT count() AS n, max(version) AS version FROM vigil_schema',
        );
        expect(result.rows).toEqual([{ n: '1', version: schemaVersion }]);
      });

      it('ping answers', async () => {
        await expect(current().ping()).resolves.toBeUndefined();
      });

      it('close is safe to call twice, and a closed engine refuses work as unavailable', async () => {
        const other = await makeEngine();
        await other.init();
        await other.ping();
        await other.close();
        await other.close();
        const error = await other.query('SELECT 1').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(EngineError);
        expect((error as EngineError).code).toBe(ErrorCodes.unavailable);
        // The suite's engine is unaffected by another instance closing.
        await expect(current().ping()).resolves.toBeUndefined();
      });
    });

    describeRoundTripContract(current);
    describeCancellationContract(current);
    describeCatalogContract(current);
    describeDeletionContract(current);
  });
}
