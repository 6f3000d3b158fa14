import { describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../../core/index.js';
import type { Engine, EngineQueryOptions } from '../engine.js';
import { eventually, slowQuery, uniqueTenant } from './engine-fixtures.js';

// Slow queries carry a time limit well past the tests' deadlines, so a cancellation that does not
// work fails the test (the query is still listed) instead of hanging it.
const safety: EngineQueryOptions = { maxExecutionTimeS: 30 };

/** The EngineError a promise rejects with. Call it at once: it also marks the rejection handled. */
async function errorOf(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => new Error('expected the engine to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(EngineError);
  return error as EngineError;
}

/** Waits until the tagged query runs in the engine and has read something. */
async function untilRunning(engine: Engine, tag: string): Promise<void> {
  await eventually(async () => {
    const running = await engine.runningQuery(tag);
    expect(running?.rowsRead).toBeGreaterThan(0);
  });
}

/** Cancellation, limits and the mapping of engine failures to error codes. */
export function describeCancellationContract(engine: () => Engine): void {
  describe('cancellation and limits', () => {
    it('runningQuery shows a tagged query’s progress, and null for an unknown tag', async () => {
      const tag = `progress-${uniqueTenant()}`;
      const running = errorOf(engine().query(slowQuery, { ...safety, tag }));
      await untilRunning(engine(), tag);
      const progress = await engine().runningQuery(tag);
      expect(progress).toMatchObject({ tag });
      expect(progress?.bytesRead).toBeGreaterThan(0);
      expect(progress?.elapsedMs).toBeGreaterThan(0);
      await engine().cancel(tag);
      expect((await running).code).toBe(ErrorCodes.engineCancelled);
      expect(await engine().runningQuery(`no-such-${tag}`)).toBeNull();
    });

    it('cancel(tag) stops a running query: its promise rejects with engine_cancelled', async () => {
      const tag = `cancel-${uniqueTenant()}`;
      const running = errorOf(engine().query(slowQuery, { ...safety, tag }));
      await untilRunning(engine(), tag);
      await engine().cancel(tag);
      await eventually(async () => expect(await engine().runningQuery(tag)).toBeNull());
      const error = await running;
      expect(error.code).toBe(ErrorCodes.engineCancelled);
      expect(error.message).toMatch(/^running query: /);
    });

    it('cancel of a tag that runs nothing is a no-op', async () => {
      await expect(engine().cancel(`idle-${uniqueTenant()}`)).resolves.toBeUndefined();
    });

    it('aborting the signal stops the query in the engine, not just the promise', async () => {
      const tag = `abort-${uniqueTenant()}`;
      const controller = new AbortController();
      const running = errorOf(engine().query(slowQuery, { ...safety, tag, signal: controller.signal }));
      await untilRunning(engine(), tag);
      controller.abort();
      await eventually(async () => expect(await engine().runningQuery(tag)).toBeNull());
      expect((await running).code).toBe(ErrorCodes.engineCancelled);
    });

    it('a query whose signal is already aborted never runs', async () => {
      const error = await errorOf(engine().query('SELECT 1', { signal: AbortSignal.abort() }));
      expect(error.code).toBe(ErrorCodes.engineCancelled);
    });

    it('aborting a stream’s signal ends the iteration with engine_cancelled', async () => {
      const tag = `abort-stream-${uniqueTenant()}`;
      const controller = new AbortController();
      const consume = errorOf(
        (async () => {
          for await (const chunk of engine().stream(slowQuery, { ...safety, tag, signal: controller.signal })) void chunk;
        })(),
      );
      await untilRunning(engine(), tag);
      controller.abort();
      await eventually(async () => expect(await engine().runningQuery(tag)).toBeNull());
      expect((await consume).code).toBe(ErrorCodes.engineCancelled);
    });

    it('max execution time gives engine_timeout', async () => {
      const error = await errorOf(engine().query(slowQuery, { maxExecutionTimeS: 0.2 }));
      expect(error.code).toBe(ErrorCodes.engineTimeout);
    });

    it('max memory usage gives engine_memory_limit', async () => {
      const error = await errorOf(engine().query('SELECT groupArray(number) AS a FROM numbers(100000000)', { maxMemoryUsageBytes: 10_000_000 }));
      expect(error.code).toBe(ErrorCodes.engineMemoryLimit);
    });

    it('other failures give engine_failure with context, the engine message and the cause', async () => {
      const error = await errorOf(engine().query('SELECT no_such_column FROM logs'));
      expect(error.code).toBe(ErrorCodes.engineFailure);
      expect(error.message).toMatch(/^running query: .*no_such_column/s);
      expect(error.cause).toBeDefined();
    });

    it('a failed query leaves no trace in the answers of later queries', async () => {
      await errorOf(engine().query(slowQuery, { maxExecutionTimeS: 0.1 }));
      await errorOf(engine().query('SELECT throwIf(number = 3) FROM numbers(10)'));
      // Enough queries to pass through every session of any reasonable pool.
      for (let i = 0; i < 12; i++) {
        const result = await engine().query('SELECT 1 AS one');
        expect(result.rows).toEqual([{ one: 1 }]);
      }
      const chunks: unknown[][] = [];
      for await (const chunk of engine().stream('SELECT 1 AS one')) chunks.push(chunk);
      expect(chunks.flat()).toEqual([{ one: 1 }]);
    });

    it('refuses a malformed setting name before reaching the engine', async () => {
      await expect(engine().query('SELECT 1', { settings: { 'x = 1, y': 1 } })).rejects.toThrow(/invalid engine setting name/);
    });
  });
}
