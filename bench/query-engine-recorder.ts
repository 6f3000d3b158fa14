import type { Engine } from '../src/engine/index.js';

/** One statement the search ran: wall time in this process and the engine's own figures. */
export interface EngineCall {
  readonly wallMs: number;
  readonly clickhouseMs: number;
  readonly rowsRead: number;
  readonly bytesRead: number;
}

/**
 * Records every `engine.query` call made through one engine instance, by wrapping that
 * instance's method (a bench-only measure: the product code runs unchanged). A search in time
 * slices issues several statements; their sum is the engine's share of the search's time.
 * Field-catalog reads go through the adapter's table operations, not `query`, so they are
 * counted as planning, not here.
 */
export class EngineCallRecorder {
  private calls: EngineCall[] = [];

  constructor(engine: Engine) {
    const original = engine.query.bind(engine);
    engine.query = (async (sql: string, options?: Parameters<Engine['query']>[1]) => {
      const started = performance.now();
      const result = await original(sql, options);
      this.calls.push({
        wallMs: performance.now() - started,
        clickhouseMs: result.stats.elapsedMs,
        rowsRead: result.stats.rowsRead,
        bytesRead: result.stats.bytesRead,
      });
      return result;
    }) as Engine['query'];
  }

  /** Starts a new recording. */
  reset(): void {
    this.calls = [];
  }

  /** The calls since the last reset, summed. */
  totals(): { statements: number; wallMs: number; clickhouseMs: number; rowsRead: number; bytesRead: number } {
    const sum = (f: (c: EngineCall) => number): number => this.calls.reduce((n, c) => n + f(c), 0);
    return {
      statements: this.calls.length,
      wallMs: sum((c) => c.wallMs),
      clickhouseMs: sum((c) => c.clickhouseMs),
      rowsRead: sum((c) => c.rowsRead),
      bytesRead: sum((c) => c.bytesRead),
    };
  }
}
