import type { Engine } from '../src/engine/index.js';

/**
 * What a statement was for, told from its SQL: the field-catalog read of planning, the read of
 * the scope's written time span (whole-range statements), the time histogram that sizes the
 * slices of an event search, or the search itself (a slice, or the whole range for aggregations).
 */
export type StatementKind = 'catalog' | 'span' | 'histogram' | 'search';

/** One statement the search ran: wall time in this process and the engine's own figures. */
export interface EngineCall {
  readonly kind: StatementKind;
  readonly wallMs: number;
  readonly clickhouseMs: number;
  readonly rowsRead: number;
  readonly bytesRead: number;
}

/** Statement count and summed wall time of one kind. */
export interface KindTotals {
  readonly statements: number;
  readonly wallMs: number;
}

export interface CallTotals {
  readonly statements: number;
  readonly wallMs: number;
  readonly clickhouseMs: number;
  readonly rowsRead: number;
  readonly bytesRead: number;
  readonly byKind: Readonly<Record<StatementKind, KindTotals>>;
}

/**
 * Records every `engine.query` and `engine.queryEvents` call made through one engine instance, by
 * wrapping that instance's methods (a bench-only measure: the product code runs unchanged). A search in time
 * slices issues several statements; their sum is the engine's share of the search's time.
 */
export class EngineCallRecorder {
  private calls: EngineCall[] = [];

  constructor(engine: Engine) {
    const query = engine.query.bind(engine);
    const queryEvents = engine.queryEvents.bind(engine);
    engine.query = ((sql: string, options?: Parameters<Engine['query']>[1]) => this.record(sql, query(sql, options))) as Engine['query'];
    engine.queryEvents = ((sql: string, answer: Parameters<Engine['queryEvents']>[1], options?: Parameters<Engine['queryEvents']>[2]) =>
      this.record(sql, queryEvents(sql, answer, options))) as Engine['queryEvents'];
  }

  private async record<T extends Awaited<ReturnType<Engine['query']>>>(sql: string, statement: Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await statement;
    this.calls.push({
      kind: statementKind(sql),
      wallMs: performance.now() - started,
      clickhouseMs: result.stats.elapsedMs,
      rowsRead: result.stats.rowsRead,
      bytesRead: result.stats.bytesRead,
    });
    return result;
  }

  /** Starts a new recording. */
  reset(): void {
    this.calls = [];
  }

  /** The calls since the last reset, summed. */
  totals(): CallTotals {
    const sum = (calls: readonly EngineCall[], f: (c: EngineCall) => number): number => calls.reduce((n, c) => n + f(c), 0);
    const kind = (k: StatementKind): KindTotals => {
      const of = this.calls.filter((c) => c.kind === k);
      return { statements: of.length, wallMs: sum(of, (c) => c.wallMs) };
    };
    return {
      statements: this.calls.length,
      wallMs: sum(this.calls, (c) => c.wallMs),
      clickhouseMs: sum(this.calls, (c) => c.clickhouseMs),
      rowsRead: sum(this.calls, (c) => c.rowsRead),
      bytesRead: sum(this.calls, (c) => c.bytesRead),
      byKind: { catalog: kind('catalog'), span: kind('span'), histogram: kind('histogram'), search: kind('search') },
    };
  }
}

function statementKind(sql: string): StatementKind {
  if (/\bFROM field_catalog\b/.test(sql)) return 'catalog';
  if (/\bFROM event_minutes\b/.test(sql)) return 'histogram';
  if (/\bFROM time_extents\b/.test(sql)) return 'span';
  return 'search';
}
