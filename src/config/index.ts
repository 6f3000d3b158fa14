/**
 * config: the only reader of process.env and config files. Produces one immutable VigilConfig
 * (defaults < config file < VIGIL_* environment < command-line flags), and reads or creates the
 * secrets key file. Imports only core.
 */
export { apiCompatModes } from './vigil-config.js';
export type {
  ApiCompat,
  VigilConfig,
  EngineConfig,
  StoreConfig,
  HttpConfig,
  IngestConfig,
  QueryLimitsConfig,
  SecurityConfig,
  SecretsKeySource,
  DetectionsConfig,
} from './vigil-config.js';
export { readSecretsKey } from './secrets-key.js';
export { embeddedStorePath, loadConfig, type ConfigOverrides } from './load-config.js';
