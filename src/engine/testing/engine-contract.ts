import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../../core/index.js';
import type { Engine } from '../engine.js';
import { eventInsertColumns } from '../encode-event-row.js';
import { schemaVersion } from '../schema.js';
import { describeCancellationContract } from './cancellation-contract.js';
import type { ContractAllowances } from './contract-allowances.js';
import { describeCatalogContract } from './catalog-contract.js';
import { describeDeletionContract } from './deletion-contract.js';
import { describeEventAnswerContract } from './event-answer-contract.js';
import { describeLookupRowsContract } from './lookup-rows-contract.js';
import { describeRoundTripContract } from './round-trip-contract.js';
import { describeTimeExtentsContract } from './time-extents-contract.js';
import { describeWordIndexContract } from './word-index-contract.js';

/**
 * The behaviour every Engine implementation owes the rest of the service. `makeEngine` returns
 * a new, not yet initialized engine over the implementation's test store; it is called once for
 * the suite and again for the lifecycle checks.
 */
export function describeEngineContract(name: string, makeEngine: () => Promise<Engine>, allowances: ContractAllowances = {}): void {
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
      it('init is idempotent and records each schema version once', async () => {
        await current().init();
        await Promise.all([current().init(), current().init()]);
        const result = await current().query<{ version: number }>('SELECT version FROM vigil_schema ORDER BY version');
        const everyVersion = Array.from({ length: schemaVersion }, (_, i) => ({ version: i + 1 }));
        expect(result.rows).toEqual(everyVersion);
      });

      it('writes events with the exact names and types of the columns of logs', async () => {
        // A structure that differs from the table makes the engine convert every row it reads.
        // The order may differ (inserts name their columns): `seq` comes after the head.
        const columns = await current().query<{ name: string; type: string }>(
          "SELECT name, type FROM system.columns WHERE database = currentDatabase() AND table = 'logs' ORDER BY name",
        );
        const written = eventInsertColumns.map(([name, type]) => [name, type]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
        expect(columns.rows.map((c) => [c.name, c.type])).toEqual(written);
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

    describeRoundTripContract(current, allowances);
    describeEventAnswerContract(current);
    describeCancellationContract(current);
    describeCatalogContract(current);
    describeDeletionContract(current);
    describeWordIndexContract(current);
    describeTimeExtentsContract(current, allowances);
    describeLookupRowsContract(current);
  });
}
