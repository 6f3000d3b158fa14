import { IngestError, newId, type Clock, type Logger } from '../core/index.js';
import {
  readDataset,
  testEventTimeFields,
  testIndexesOf,
  testWindow,
  type DatasetEvent,
  type ResultRow,
  type RuleDefinition,
  type RuleTestDefinition,
  type TestWindow,
} from '../detections/index.js';
import type { Engine } from '../engine/index.js';
import { ingestStream } from '../ingest/index.js';
import { QueryPlanner, WindowQueries } from '../search/index.js';

/** What one rule test found (E15), with what the query returned in the window. */
export interface RuleTestResult {
  readonly name: string;
  readonly status: 'Passed' | 'Failed';
  readonly expectedDetectionResult: boolean;
  /** Whether the query returned at least one row in the window. */
  readonly detectionResult: boolean;
  readonly window: TestWindow;
  readonly columns: readonly string[];
  /** The first rows the query returned (at most `maxShownRows`). */
  readonly rows: readonly ResultRow['columns'][];
  /** Rows returned; raw-event results stop counting at `maxRows`. */
  readonly rowCount: number;
}

/** Rows a test reads and shows: enough to tell a user what matched. */
export const ruleTestLimits = { maxRows: 100, maxShownRows: 10 } as const;

/**
 * The prefix of scratch tenants. Real tenant ids start with a letter or digit (checkTenantId), so
 * a test's events can never be seen by, or mixed with, a tenant's own.
 */
export const scratchTenantPrefix = '~rule-test-';

/** A scratch tenant's id: the prefix, when it was made (ms since the epoch), and a random part. */
function scratchTenantId(nowMs: number): string {
  return `${scratchTenantPrefix}${nowMs}-${newId()}`;
}

/** When a scratch tenant was made, or null for an id without the time (written before it had one). */
function scratchTenantMadeMs(tenant: string): number | null {
  const made = tenant.startsWith(scratchTenantPrefix) ? /^(\d+)-/.exec(tenant.slice(scratchTenantPrefix.length)) : null;
  return made ? Number(made[1]) : null;
}

/**
 * How old a scratch tenant must be before a sweep deletes it: far longer than any test runs (a
 * rule window's time limit is a minute), so that no sweep, of this process or another sharing the
 * engine, deletes the events of a test still running.
 */
export const scratchLeftoverAgeMs = 3_600_000;

export interface RuleTestRunnerOptions {
  /**
   * Delete each test's scratch events once it ran (a server's engine). A temporary engine that is
   * thrown away after the run (the CLI's) skips it. Default true.
   */
  readonly deleteScratchEvents?: boolean;
}

/**
 * Runs rule tests on the real events engine (E15): each test's dataset is written to a scratch
 * tenant of its own, into the indexes its query names (`testIndexes`), and the query runs over
 * the test's window exactly as a detection window does (`WindowQueries.runOnce`). A server runs
 * tests on its own engine this way without touching any tenant's data; the CLI gives it a
 * temporary engine. The scratch events are deleted in the background, one test after another: a
 * lightweight DELETE costs far more than the test (hundreds of milliseconds on a busy engine), and
 * until it is done the rows are invisible to every tenant anyway.
 */
export class RuleTestRunner {
  private cleaning: Promise<void> = Promise.resolve();
  private readonly deleteScratch: boolean;

  constructor(
    private readonly engine: Engine,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: RuleTestRunnerOptions = {},
  ) {
    this.deleteScratch = options.deleteScratchEvents ?? true;
  }

  /** Resolves once every scratch event written so far is deleted (tests, shutdown). */
  settled(): Promise<void> {
    return this.cleaning;
  }

  /**
   * Deletes the scratch events that tests left behind when their process stopped before deleting
   * them (a crash, a kill): those of scratch tenants older than `scratchLeftoverAgeMs`. They were
   * invisible to every tenant; this gives their disk back. Returns how many indexes it emptied.
   */
  async sweepLeftovers(): Promise<number> {
    const cutoffMs = this.clock.nowMs() - scratchLeftoverAgeMs;
    const left = (await this.engine.indexesWithEvents(scratchTenantPrefix)).filter(({ tenant }) => (scratchTenantMadeMs(tenant) ?? 0) < cutoffMs);
    for (const { tenant, indexId } of left) await this.engine.deleteIndexEvents(tenant, indexId);
    if (left.length > 0) this.logger.info({ indexes: left.length }, 'deleted events left by interrupted rule tests');
    return left.length;
  }

  /** Runs every test of a checked definition in order; engine failures throw (EngineError). */
  async runAll(definition: RuleDefinition, signal?: AbortSignal): Promise<RuleTestResult[]> {
    const results: RuleTestResult[] = [];
    for (const test of definition.tests) results.push(await this.run(definition, test, signal));
    return results;
  }

  async run(definition: RuleDefinition, test: RuleTestDefinition, signal?: AbortSignal): Promise<RuleTestResult> {
    const { events } = readDataset(test.datasetInline, test.datasetFormat ?? 'LegacyFlatten');
    const window = testWindow(
      definition,
      test.nowTimestamp,
      events.map((e) => e.timeNs),
    );
    const { indexes, loadInto } = testIndexesOf(definition.queryText);
    const tenant = scratchTenantId(this.clock.nowMs());
    try {
      for (const indexId of loadInto) await this.load(tenant, indexId, events);
      const windows = new WindowQueries(this.engine, new QueryPlanner(this.engine, async () => indexes, this.clock));
      const result = await windows.runOnce(tenant, definition.queryText, window, ruleTestLimits.maxRows, signal);
      const detectionResult = result.rows.length > 0;
      return {
        name: test.name,
        status: detectionResult === test.expectedDetectionResult ? 'Passed' : 'Failed',
        expectedDetectionResult: test.expectedDetectionResult,
        detectionResult,
        window,
        columns: result.columns,
        rows: result.rows.slice(0, ruleTestLimits.maxShownRows).map((row) => row.columns),
        rowCount: result.rows.length,
      };
    } finally {
      if (this.deleteScratch) this.cleaning = this.cleaning.then(() => this.cleanUp(tenant, loadInto));
    }
  }

  /** Writes the events, one ingest per source type (ingest takes the source type per target). */
  private async load(tenant: string, indexId: string, events: readonly DatasetEvent[]): Promise<void> {
    const bySourceType = new Map<string, string[]>();
    for (const event of events) {
      const lines = bySourceType.get(event.sourceType);
      if (lines) lines.push(event.text);
      else bySourceType.set(event.sourceType, [event.text]);
    }
    let next = 1n;
    const reserveSequence = async (count: number): Promise<bigint> => {
      const first = next;
      next += BigInt(count);
      return first;
    };
    for (const [sourceType, lines] of bySourceType) {
      const summary = await ingestStream(
        [`${lines.join('\n')}\n`],
        { tenantId: tenant, indexId, timestampFields: testEventTimeFields, sourceType },
        { engine: this.engine, reserveSequence, clock: this.clock },
        { format: 'ndjson' },
      );
      if (summary.rejected > 0) throw new IngestError(`loading the test dataset: ${summary.errors[0]?.error ?? 'an event was rejected'}`);
    }
  }

  private async cleanUp(tenant: string, indexIds: readonly string[]): Promise<void> {
    for (const indexId of indexIds) {
      try {
        await this.engine.deleteIndexEvents(tenant, indexId);
      } catch (error) {
        // Scratch events are invisible to every tenant; a failed delete only leaves dead rows.
        this.logger.warn({ err: error, tenant, index: indexId }, 'could not delete rule test events');
      }
    }
  }
}
