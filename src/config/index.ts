/**
 * config: the only reader of process.env and config files. Produces one immutable VigilConfig
 * (defaults < config file < VIGIL_* environment < command-line flags). Imports only core.
 */
export type { VigilConfig, EngineConfig, StoreConfig, HttpConfig, IngestConfig, QueryLimitsConfig, SecurityConfig } from './vigil-config.js';
export { loadConfig, type ConfigOverrides } from './load-config.js';
