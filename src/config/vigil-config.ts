/** Everything the service reads from its environment, after defaults, file, env and flags. */
export interface VigilConfig {
  /** Root of all local state: `engine/`, `vigil.db`, `bootstrap-key`, `server.json`. */
  readonly dataDir: string;
  readonly host: string;
  readonly port: number;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  readonly engine: EngineConfig;
  readonly store: StoreConfig;
  readonly http: HttpConfig;
  readonly ingest: IngestConfig;
  readonly query: QueryLimitsConfig;
  readonly security: SecurityConfig;
  /** API key the CLI sends when it talks to a running server (`VIGIL_API_KEY`), or null. */
  readonly cliApiKey: string | null;
  /** Base URL of the server the CLI sends remote commands to (`VIGIL_API_URL`), or null to work locally. */
  readonly cliApiUrl: string | null;
  /** Seconds between retention sweeps and deleted-index purges. */
  readonly maintenanceIntervalS: number;
  /** `vigil serve` exits this long after SIGTERM or SIGINT at the latest, finished or not. */
  readonly shutdownTimeoutS: number;
  /** `/readyz` answers 503 while the disk holding the data dir has less free than this. */
  readonly dataDirMinFreeBytes: number;
  readonly detections: DetectionsConfig;
}

/** The detection engine and alert delivery (docs/detections.md, "Settings"). */
export interface DetectionsConfig {
  /** A window is evaluated this long after it ends, so ingest can catch up (E1). */
  readonly settleDelayS: number;
  /** After downtime, missed windows up to this old are evaluated; older ones are recorded as a gap (E2). */
  readonly catchUpHorizonS: number;
  /** Engine statements evaluating rule windows at once. */
  readonly maxConcurrentRuns: number;
  /** Rule windows (filters over the same tenant and window) one statement evaluates at most. */
  readonly windowBatchSize: number;
  /** A rule's query running longer is cancelled; the window is tried again. */
  readonly ruleTimeoutS: number;
  /** Raw-event rows one window reads at most. */
  readonly maxRows: number;
  /** Alerts sent at once, and at once to one sink. */
  readonly deliveryConcurrency: number;
  readonly deliveryPerSinkConcurrency: number;
  /** One send's time limit. */
  readonly deliveryTimeoutS: number;
  /** Retries of a delivery stop this long after it was queued (E13). */
  readonly deliveryGiveUpS: number;
  /** Chat Web API base URL for integrations that give none (default https://slack.com/api). */
  readonly chatApiUrl: string | null;
  /** Pager Events API base URL (default https://events.pagerduty.com). */
  readonly pagerApiUrl: string | null;
}

export type EngineConfig =
  | { readonly kind: 'chdb'; readonly path: string; readonly poolSize: number }
  | {
      readonly kind: 'clickhouse';
      readonly url: string;
      readonly poolSize: number;
      /** ClickHouse cluster name: the schema is created ON CLUSTER, Replicated, with Distributed tables over `*_local`. */
      readonly cluster: string | null;
    };

/** SQLite in the data dir (embedded), or PostgreSQL shared by every server of a deployment (`store_url`). */
export type StoreConfig = { readonly kind: 'sqlite'; readonly path: string } | { readonly kind: 'postgres'; readonly url: string };

export interface HttpConfig {
  /** Largest ingest body accepted, after gzip decoding; beyond it the answer is 413. */
  readonly maxIngestBytes: number;
  /** Largest JSON body of any other endpoint. */
  readonly maxJsonBodyBytes: number;
  /**
   * Whose names responses use (docs/compatibility.md): `vigil` (default) answers with the
   * interface's words (`Chat`, `Pager`, `@svc`); `scanner` with the published product's
   * (`Slack`, `PagerDuty`, `@scanner`) and its SDK's row shape, so that SDK's models parse.
   * Requests are read in either spelling whatever this says.
   */
  readonly apiCompat: ApiCompat;
}

/** The names an API answers with: see HttpConfig.apiCompat. */
export type ApiCompat = 'vigil' | 'scanner';

export const apiCompatModes: readonly ApiCompat[] = ['vigil', 'scanner'];

export interface IngestConfig {
  /** Rows per engine insert; larger batches make fewer, larger parts. */
  readonly batchRows: number;
  /** Encoded bytes per engine insert. */
  readonly batchBytes: number;
  /**
   * The embedded engine acknowledges small batches once they are in the ingest journal and
   * writes them in groups (docs/engine.md, "The ingest journal"). No effect on a ClickHouse server.
   */
  readonly journal: boolean;
  /** Largest body of a shipper protocol request (Elasticsearch, HEC, OTLP, Loki), as sent and decoded. */
  readonly shipperMaxBodyBytes: number;
  /** Shipper requests being written at once, in all and per tenant (each protocol's 429 beyond). */
  readonly shipperMaxConcurrent: number;
  readonly shipperMaxConcurrentPerTenant: number;
}

export interface QueryLimitsConfig {
  readonly maxExecutionTimeS: number;
  readonly maxMemoryUsageBytes: number;
  /** A blocking query running longer is cancelled and answers 504. */
  readonly blockingTimeoutS: number;
  /** How long a finished ad hoc query still answers query_progress. */
  readonly resultTtlS: number;
  /** Ad hoc queries running at once, over all tenants and per tenant (429 beyond). */
  readonly maxConcurrent: number;
  readonly maxConcurrentPerTenant: number;
}

export interface SecurityConfig {
  /** Lets webhook and pager sinks target private and loopback addresses (off by default). */
  readonly allowPrivateDestinations: boolean;
  /** The key that seals stored secrets (chat tokens, pager keys, webhook headers): see readSecretsKey. */
  readonly secretsKey: SecretsKeySource;
}

/**
 * Where the secrets key comes from: given inline (`VIGIL_SECRETS_KEY` or `secrets_key`, base64
 * of 32 bytes), or a file (`secrets_key_file`, default `<data_dir>/secrets.key`) created with mode
 * 0600 the first time a secret is sealed.
 */
export type SecretsKeySource = { readonly kind: 'inline'; readonly base64: string } | { readonly kind: 'file'; readonly path: string };
