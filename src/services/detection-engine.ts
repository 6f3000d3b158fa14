import { IngestError, type Clock, type Logger } from '../core/index.js';
import {
  DeliveryWorker,
  RuleScheduler,
  defaultDeliverySettings,
  defaultSchedulerSettings,
  WindowQueryBatcher,
  type DeliverySettings,
  type DetectionMetrics,
  type SchedulerSettings,
  type WriteDetections,
} from '../detections/index.js';
import type { Engine } from '../engine/index.js';
import type { SearchService } from '../search/index.js';
import type { Store } from '../store/index.js';
import type { ChatIntegrationService } from './chat-integration-service.js';
import type { EventSinkService } from './event-sink-service.js';
import type { IndexService } from './index-service.js';
import { deploymentSinkResolver } from './sink-resolver.js';
import { writeSystemEvents } from './system-events.js';
import type { TenantService } from './tenant-service.js';

/** The deployment's detection and delivery settings (docs/detections.md, "Settings"). */
export interface DetectionEngineSettings {
  /** `maxConcurrentRuns` counts engine statements: each evaluates up to `windowBatchSize` windows. */
  readonly scheduler: SchedulerSettings;
  /** Rule windows (same tenant and range, filter-only queries) one statement evaluates at most. */
  readonly windowBatchSize: number;
  readonly delivery: DeliverySettings;
  /** One send's time limit. */
  readonly sendTimeoutMs: number;
  /** Chat Web API base URL for integrations that name none. */
  readonly chatApiUrl: string | null;
  /** Pager Events API base URL. */
  readonly pagerApiUrl: string | null;
  readonly userAgent: string;
  /**
   * Whether this process is the only delivery worker of its store (embedded mode: the data
   * directory lock proves it), so leases left by a killed process can be released at start.
   */
  readonly exclusiveWorker: boolean;
  /** This process's name as holder of leases on shared work (unique per process start). */
  readonly leaseHolder?: string;
}

export const defaultDetectionEngineSettings: DetectionEngineSettings = {
  scheduler: defaultSchedulerSettings,
  windowBatchSize: 64,
  delivery: defaultDeliverySettings,
  sendTimeoutMs: 10_000,
  chatApiUrl: null,
  pagerApiUrl: null,
  userAgent: 'vigil',
  exclusiveWorker: false,
};

export interface DetectionEngineDeps {
  readonly store: Store;
  readonly engine: Engine;
  /** Its window side runs the rule windows' queries (alone, or many filters of one tenant and window in one statement). */
  readonly search: SearchService;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly tenants: TenantService;
  readonly indexes: IndexService;
  readonly sinks: EventSinkService;
  readonly chatIntegrations: ChatIntegrationService;
  readonly allowPrivateDestinations: boolean;
  readonly metrics?: DetectionMetrics;
}

/**
 * The detection engine of `vigil serve`: the rule scheduler and the delivery worker, wired to the
 * events engine. Rule windows run through the search service's window queries, batched by a
 * WindowQueryBatcher (filter-only rules over the same window share a statement; the batcher bounds
 * the statements at once, apart from the ad hoc queries' limits), detections
 * are ingested into each tenant's `_detections` index, and sinks open their secrets through the
 * services that sealed them.
 */
export class DetectionEngine {
  readonly scheduler: RuleScheduler;
  readonly worker: DeliveryWorker;
  private readonly store: Store;
  private readonly exclusive: boolean;

  constructor(deps: DetectionEngineDeps, settings: DetectionEngineSettings = defaultDetectionEngineSettings) {
    const { store, engine, clock, logger } = deps;
    this.store = store;
    this.exclusive = settings.exclusiveWorker;
    const batcher = new WindowQueryBatcher(deps.search.windows, { maxStatements: settings.scheduler.maxConcurrentRuns, maxBatch: settings.windowBatchSize });
    const writeDetections: WriteDetections = async (tenantId, events) => {
      // A rule's tenant normally has its system indexes; ensure them (more queries) only when missing.
      let index = await deps.tenants.systemIndex(tenantId, '_detections');
      if (index === null) {
        await deps.tenants.ensure(tenantId);
        index = await deps.tenants.systemIndex(tenantId, '_detections');
      }
      if (index === null) throw new IngestError(`tenant ${tenantId} has no _detections index`);
      const summary = await writeSystemEvents(
        { engine, store, clock, writingEvents: (tenant) => deps.search.writingEvents(tenant) },
        { tenantId, indexId: index.id, timestampFields: ['timestamp'], sourceType: 'vigil:detection' },
        events,
      );
      if (summary.rejected > 0) throw new IngestError(`writing detections: ${summary.errors[0]?.error ?? 'rejected'}`);
    };
    this.worker = new DeliveryWorker(
      {
        store,
        clock,
        logger: logger.child({ component: 'delivery' }),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
        resolveSink: deploymentSinkResolver(deps, settings),
      },
      settings.delivery,
    );
    this.scheduler = new RuleScheduler(
      {
        store,
        clock,
        runQuery: batcher.run,
        writeDetections,
        logger: logger.child({ component: 'scheduler' }),
        ...(deps.metrics ? { metrics: deps.metrics } : {}),
        onAlertsQueued: () => this.worker.kick(),
        ...(settings.leaseHolder === undefined ? {} : { leaseHolder: settings.leaseHolder }),
      },
      // Enough windows at once to fill every statement's batch; the batcher bounds the engine work.
      { ...settings.scheduler, maxConcurrentRuns: settings.scheduler.maxConcurrentRuns * settings.windowBatchSize },
    );
  }

  /** Starts both loops. A process that is the only worker first takes back deliveries and rules a killed one left leased. */
  async start(): Promise<void> {
    if (this.exclusive) {
      await this.store.alerts.releaseLeases();
      await this.store.leases.releaseAll();
    }
    this.scheduler.start();
    this.worker.start();
  }

  /** Stops both; running rule windows are cancelled (they run again after a restart), sends get a grace period. */
  async stop(): Promise<void> {
    await Promise.all([this.scheduler.stop(), this.worker.stop()]);
  }
}
