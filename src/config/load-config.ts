import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { closestName, ConfigError, errorDiagnostic, secretsKeyBytes, type Diagnostic } from '../core/index.js';
import { isSecretsKeyText } from './secrets-key.js';
import { apiCompatModes, type ApiCompat, type SecretsKeySource, type VigilConfig } from './vigil-config.js';

/** Values given on the command line; they win over the environment and the file. */
export interface ConfigOverrides {
  dataDir?: string;
  host?: string;
  /** `serve --port` as typed: checked here, by the rule VIGIL_PORT follows. */
  port?: string;
  configFile?: string;
  logLevel?: VigilConfig['logLevel'];
}

type Env = Readonly<Record<string, string | undefined>>;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Every key a config file may hold: any other is a mistake to report, not to ignore. */
export const configFileKeys: readonly string[] = [
  'data_dir',
  'host',
  'port',
  'log_level',
  'clickhouse_url',
  'clickhouse_cluster',
  'store_url',
  'engine_pool_size',
  'max_ingest_bytes',
  'max_json_body_bytes',
  'ingest_batch_rows',
  'ingest_batch_bytes',
  'ingest_journal',
  'query_max_execution_time_s',
  'query_max_memory_bytes',
  'blocking_query_timeout_s',
  'query_result_ttl_s',
  'max_concurrent_queries',
  'max_concurrent_queries_per_tenant',
  'allow_private_destinations',
  'secrets_key',
  'secrets_key_file',
  'maintenance_interval_s',
  'shutdown_timeout_s',
  'data_dir_min_free_bytes',
  'detection_settle_delay_s',
  'detection_catch_up_horizon_s',
  'detection_max_concurrent_runs',
  'detection_window_batch_size',
  'detection_rule_timeout_s',
  'detection_max_rows',
  'delivery_concurrency',
  'delivery_per_sink_concurrency',
  'delivery_timeout_s',
  'delivery_give_up_s',
  'chat_api_url',
  'pager_api_url',
  'api_compat',
  'max_shipper_body_bytes',
  'shipper_max_concurrent',
  'shipper_max_concurrent_per_tenant',
];

/**
 * Builds the configuration: defaults, then the config file (`--config`, `VIGIL_CONFIG`, or
 * `./vigil.config.json` when present), then `VIGIL_*` variables, then command-line flags.
 * Every problem is reported at once.
 */
export function loadConfig(overrides: ConfigOverrides = {}, env: Env = process.env, cwd = process.cwd()): VigilConfig {
  const problems: Diagnostic[] = [];
  const file = readConfigFile(overrides.configFile ?? strFromEnv(env, 'VIGIL_CONFIG'), cwd, problems);
  const pick = <T>(flag: T | undefined, envValue: T | undefined, fileValue: T | undefined, fallback: T): T => flag ?? envValue ?? fileValue ?? fallback;

  const dataDir = resolve(cwd, pick(overrides.dataDir, strFromEnv(env, 'VIGIL_DATA_DIR'), str(file, 'data_dir', problems), './data'));
  const host = pick(overrides.host, strFromEnv(env, 'VIGIL_HOST'), str(file, 'host', problems), '127.0.0.1');
  const port = portSetting(overrides.port, env, file, problems);
  const logLevel = pick(
    overrides.logLevel,
    strFromEnv(env, 'VIGIL_LOG_LEVEL') as VigilConfig['logLevel'] | undefined,
    str(file, 'log_level', problems) as VigilConfig['logLevel'] | undefined,
    'info',
  );
  if (!logLevels.includes(logLevel)) problems.push(errorDiagnostic('invalid_log_level', `log level must be one of ${logLevels.join(', ')}`, { field: 'log_level' }));

  // An integer setting: file key `name`, environment VIGIL_<NAME>.
  const setting = (name: string, fallback: number): number => pick(undefined, intFromEnv(env, `VIGIL_${name.toUpperCase()}`, problems), int(file, name, problems), fallback);
  const clickhouseUrl = strFromEnv(env, 'CLICKHOUSE_URL') ?? str(file, 'clickhouse_url', problems);
  const cluster = strFromEnv(env, 'VIGIL_CLICKHOUSE_CLUSTER') ?? str(file, 'clickhouse_cluster', problems);
  if (cluster !== undefined && !clickhouseUrl) {
    problems.push(errorDiagnostic('config_conflict', 'clickhouse_cluster needs clickhouse_url: the embedded engine is one node', { field: 'clickhouse_cluster' }));
  }
  if (cluster !== undefined && !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(cluster)) {
    problems.push(
      errorDiagnostic('invalid_cluster', `clickhouse_cluster must be a cluster name (letters, digits, _ and -), got ${JSON.stringify(cluster)}`, { field: 'clickhouse_cluster' }),
    );
  }
  const storeUrl = strFromEnv(env, 'VIGIL_STORE_URL') ?? str(file, 'store_url', problems);
  if (storeUrl !== undefined && !/^postgres(ql)?:\/\//.test(storeUrl)) {
    problems.push(
      errorDiagnostic('invalid_store_url', 'store_url must be a postgres:// (or postgresql://) URL; leave it unset for the embedded SQLite store', { field: 'store_url' }),
    );
  }
  const poolSize = pick(undefined, intFromEnv(env, 'VIGIL_ENGINE_POOL_SIZE', problems), int(file, 'engine_pool_size', problems), 4);
  const config: VigilConfig = {
    dataDir,
    host,
    port,
    logLevel,
    engine: clickhouseUrl ? { kind: 'clickhouse', url: clickhouseUrl, poolSize, cluster: cluster ?? null } : { kind: 'chdb', path: resolve(dataDir, 'engine'), poolSize },
    store: storeUrl ? { kind: 'postgres', url: storeUrl } : { kind: 'sqlite', path: embeddedStorePath(dataDir) },
    http: {
      maxIngestBytes: pick(undefined, intFromEnv(env, 'VIGIL_MAX_INGEST_BYTES', problems), int(file, 'max_ingest_bytes', problems), 256 * 1024 * 1024),
      maxJsonBodyBytes: pick(undefined, intFromEnv(env, 'VIGIL_MAX_JSON_BODY_BYTES', problems), int(file, 'max_json_body_bytes', problems), 1024 * 1024),
      apiCompat: apiCompatSetting(env, file, problems),
    },
    ingest: {
      batchRows: pick(undefined, intFromEnv(env, 'VIGIL_INGEST_BATCH_ROWS', problems), int(file, 'ingest_batch_rows', problems), 50_000),
      batchBytes: pick(undefined, intFromEnv(env, 'VIGIL_INGEST_BATCH_BYTES', problems), int(file, 'ingest_batch_bytes', problems), 64 * 1024 * 1024),
      journal: pick(undefined, boolFromEnv(env, 'VIGIL_INGEST_JOURNAL', problems), bool(file, 'ingest_journal', problems), true),
      shipperMaxBodyBytes: setting('max_shipper_body_bytes', 32 * 1024 * 1024),
      shipperMaxConcurrent: setting('shipper_max_concurrent', 8),
      shipperMaxConcurrentPerTenant: setting('shipper_max_concurrent_per_tenant', 4),
    },
    query: {
      maxExecutionTimeS: pick(undefined, intFromEnv(env, 'VIGIL_QUERY_MAX_EXECUTION_TIME_S', problems), int(file, 'query_max_execution_time_s', problems), 300),
      maxMemoryUsageBytes: pick(undefined, intFromEnv(env, 'VIGIL_QUERY_MAX_MEMORY_BYTES', problems), int(file, 'query_max_memory_bytes', problems), 2 * 1024 * 1024 * 1024),
      blockingTimeoutS: pick(undefined, intFromEnv(env, 'VIGIL_BLOCKING_QUERY_TIMEOUT_S', problems), int(file, 'blocking_query_timeout_s', problems), 300),
      resultTtlS: pick(undefined, intFromEnv(env, 'VIGIL_QUERY_RESULT_TTL_S', problems), int(file, 'query_result_ttl_s', problems), 600),
      maxConcurrent: pick(undefined, intFromEnv(env, 'VIGIL_MAX_CONCURRENT_QUERIES', problems), int(file, 'max_concurrent_queries', problems), 8),
      maxConcurrentPerTenant: pick(undefined, intFromEnv(env, 'VIGIL_MAX_CONCURRENT_QUERIES_PER_TENANT', problems), int(file, 'max_concurrent_queries_per_tenant', problems), 4),
    },
    security: {
      allowPrivateDestinations: pick(undefined, boolFromEnv(env, 'VIGIL_ALLOW_PRIVATE_DESTINATIONS', problems), bool(file, 'allow_private_destinations', problems), false),
      secretsKey: secretsKeySource(env, file, dataDir, cwd, problems),
    },
    cliApiKey: strFromEnv(env, 'VIGIL_API_KEY') ?? null,
    cliApiUrl: strFromEnv(env, 'VIGIL_API_URL')?.replace(/\/+$/, '') ?? null,
    maintenanceIntervalS: pick(undefined, intFromEnv(env, 'VIGIL_MAINTENANCE_INTERVAL_S', problems), int(file, 'maintenance_interval_s', problems), 300),
    shutdownTimeoutS: pick(undefined, intFromEnv(env, 'VIGIL_SHUTDOWN_TIMEOUT_S', problems), int(file, 'shutdown_timeout_s', problems), 20),
    dataDirMinFreeBytes: pick(undefined, intFromEnv(env, 'VIGIL_DATA_DIR_MIN_FREE_BYTES', problems), int(file, 'data_dir_min_free_bytes', problems), 64 * 1024 * 1024),
    detections: {
      settleDelayS: setting('detection_settle_delay_s', 30),
      catchUpHorizonS: setting('detection_catch_up_horizon_s', 86_400),
      maxConcurrentRuns: setting('detection_max_concurrent_runs', 4),
      windowBatchSize: setting('detection_window_batch_size', 64),
      ruleTimeoutS: setting('detection_rule_timeout_s', 60),
      maxRows: setting('detection_max_rows', 10_000),
      deliveryConcurrency: setting('delivery_concurrency', 8),
      deliveryPerSinkConcurrency: setting('delivery_per_sink_concurrency', 2),
      deliveryTimeoutS: setting('delivery_timeout_s', 10),
      deliveryGiveUpS: setting('delivery_give_up_s', 86_400),
      chatApiUrl: (strFromEnv(env, 'VIGIL_CHAT_API_URL') ?? str(file, 'chat_api_url', problems)) || null,
      pagerApiUrl: (strFromEnv(env, 'VIGIL_PAGER_API_URL') ?? str(file, 'pager_api_url', problems)) || null,
    },
  };
  const atLeastOne = [
    ['max_ingest_bytes', config.http.maxIngestBytes],
    ['ingest_batch_rows', config.ingest.batchRows],
    ['ingest_batch_bytes', config.ingest.batchBytes],
    ['max_shipper_body_bytes', config.ingest.shipperMaxBodyBytes],
    ['shipper_max_concurrent', config.ingest.shipperMaxConcurrent],
    ['shipper_max_concurrent_per_tenant', config.ingest.shipperMaxConcurrentPerTenant],
    ['engine_pool_size', poolSize],
    ['blocking_query_timeout_s', config.query.blockingTimeoutS],
    ['shutdown_timeout_s', config.shutdownTimeoutS],
    ['query_result_ttl_s', config.query.resultTtlS],
    ['max_concurrent_queries', config.query.maxConcurrent],
    ['max_concurrent_queries_per_tenant', config.query.maxConcurrentPerTenant],
    ['detection_catch_up_horizon_s', config.detections.catchUpHorizonS],
    ['detection_max_concurrent_runs', config.detections.maxConcurrentRuns],
    ['detection_window_batch_size', config.detections.windowBatchSize],
    ['detection_rule_timeout_s', config.detections.ruleTimeoutS],
    ['detection_max_rows', config.detections.maxRows],
    ['delivery_concurrency', config.detections.deliveryConcurrency],
    ['delivery_per_sink_concurrency', config.detections.deliveryPerSinkConcurrency],
    ['delivery_timeout_s', config.detections.deliveryTimeoutS],
    ['delivery_give_up_s', config.detections.deliveryGiveUpS],
  ] as const;
  for (const [name, value] of atLeastOne) {
    if (value < 1) problems.push(errorDiagnostic('invalid_number', `${name} must be at least 1`, { field: name }));
  }
  if (problems.length > 0) {
    throw new ConfigError(`invalid configuration: ${problems.map((p) => (p.field ? `${p.field}: ${p.message}` : p.message)).join('; ')}`, { diagnostics: problems });
  }
  return config;
}

// The listen port from the flag, VIGIL_PORT or the file key, in that order; a problem names the
// one that set it, so the user knows what to fix.
function portSetting(flag: string | undefined, env: Env, file: Record<string, unknown>, problems: Diagnostic[]): number {
  const before = problems.length;
  const [source, value] =
    flag !== undefined
      ? ['--port', wholeNumber('--port', flag, problems)]
      : strFromEnv(env, 'VIGIL_PORT') !== undefined
        ? ['VIGIL_PORT', intFromEnv(env, 'VIGIL_PORT', problems)]
        : ['port', int(file, 'port', problems)];
  if (problems.length > before) return 8080; // already reported: not a whole number
  if (value !== undefined && (value < 0 || value > 65535))
    problems.push(errorDiagnostic('invalid_port', `${source} must be a port from 0 to 65535, got ${value}`, { field: source }));
  return value ?? 8080;
}

// `vigil` or `scanner`, from VIGIL_API_COMPAT or the file key; another value is a problem naming both.
function apiCompatSetting(env: Env, file: Record<string, unknown>, problems: Diagnostic[]): ApiCompat {
  const [source, value] =
    strFromEnv(env, 'VIGIL_API_COMPAT') !== undefined ? ['VIGIL_API_COMPAT', strFromEnv(env, 'VIGIL_API_COMPAT')] : ['api_compat', str(file, 'api_compat', problems)];
  if (value === undefined) return 'vigil';
  if ((apiCompatModes as readonly string[]).includes(value)) return value as ApiCompat;
  problems.push(errorDiagnostic('invalid_api_compat', `${source} must be one of ${apiCompatModes.join(', ')}, got ${JSON.stringify(value)}`, { field: source }));
  return 'vigil';
}

function secretsKeySource(env: Env, file: Record<string, unknown>, dataDir: string, cwd: string, problems: Diagnostic[]): SecretsKeySource {
  const inline = strFromEnv(env, 'VIGIL_SECRETS_KEY') ?? str(file, 'secrets_key', problems);
  if (inline !== undefined && inline !== '') {
    if (!isSecretsKeyText(inline)) {
      problems.push(
        errorDiagnostic('invalid_secrets_key', `secrets_key must be the base64 of ${secretsKeyBytes} random bytes (openssl rand -base64 ${secretsKeyBytes})`, {
          field: 'secrets_key',
        }),
      );
    }
    return { kind: 'inline', base64: inline };
  }
  const path = strFromEnv(env, 'VIGIL_SECRETS_KEY_FILE') ?? str(file, 'secrets_key_file', problems);
  return { kind: 'file', path: path ? resolve(cwd, path) : resolve(dataDir, 'secrets.key') };
}

function readConfigFile(path: string | undefined, cwd: string, problems: Diagnostic[]): Record<string, unknown> {
  const explicit = path !== undefined;
  const file = resolve(cwd, path ?? 'vigil.config.json');
  if (!existsSync(file)) {
    if (explicit) problems.push(errorDiagnostic('config_file_missing', `config file ${file} does not exist`, { field: 'config' }));
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      problems.push(errorDiagnostic('config_file_shape', `config file ${file} must hold a JSON object`, { field: 'config' }));
      return {};
    }
    for (const key of Object.keys(parsed)) {
      if (configFileKeys.includes(key)) continue;
      const near = closestName(key, configFileKeys);
      problems.push(errorDiagnostic('config_unknown_key', `unknown key ${JSON.stringify(key)} in config file ${file}${near ? `; did you mean ${near}?` : ''}`, { field: key }));
    }
    return parsed as Record<string, unknown>;
  } catch (cause) {
    problems.push(errorDiagnostic('config_file_unreadable', `config file ${file} is not valid JSON: ${(cause as Error).message}`, { field: 'config' }));
    return {};
  }
}

function str(file: Record<string, unknown>, key: string, problems: Diagnostic[]): string | undefined {
  const v = file[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') problems.push(errorDiagnostic('config_type', `${key} must be a string`, { field: key }));
  return typeof v === 'string' ? v : undefined;
}

function int(file: Record<string, unknown>, key: string, problems: Diagnostic[]): number | undefined {
  const v = file[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) problems.push(errorDiagnostic('config_type', `${key} must be an integer`, { field: key }));
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

function bool(file: Record<string, unknown>, key: string, problems: Diagnostic[]): boolean | undefined {
  const v = file[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') problems.push(errorDiagnostic('config_type', `${key} must be true or false`, { field: key }));
  return typeof v === 'boolean' ? v : undefined;
}

// A variable set to the empty string counts as unset, as for the number and true/false ones:
// `VIGIL_DATA_DIR=` must not make the data dir the current directory.
function strFromEnv(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function intFromEnv(env: Env, name: string, problems: Diagnostic[]): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  return wholeNumber(name, raw, problems);
}

// Digits only: no sign, no 0x, no exponent, no blank (Number() would take all of those).
function wholeNumber(name: string, raw: string, problems: Diagnostic[]): number | undefined {
  if (!/^\d+$/.test(raw)) {
    problems.push(errorDiagnostic('env_type', `${name} must be a whole number, got ${JSON.stringify(raw)}`, { field: name }));
    return undefined;
  }
  return Number(raw);
}

function boolFromEnv(env: Env, name: string, problems: Diagnostic[]): boolean | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  problems.push(errorDiagnostic('env_type', `${name} must be true or false, got ${JSON.stringify(raw)}`, { field: name }));
  return undefined;
}

/** The embedded (SQLite) store's file in a data dir: the store unless store_url is set, and what `vigil migrate-store` copies. */
export function embeddedStorePath(dataDir: string): string {
  return resolve(dataDir, 'vigil.db');
}
