import { newId, ValidationError } from '../core/index.js';
import type { EngineQueryOptions } from './engine.js';
import { sqlString } from '../core/index.js';

/** Limits applied to every query that does not set its own. */
export interface QueryLimits {
  readonly maxExecutionTimeS: number;
  readonly maxMemoryUsageBytes: number;
}

export const defaultQueryLimits: QueryLimits = {
  maxExecutionTimeS: 300,
  maxMemoryUsageBytes: 2 * 1024 ** 3,
};

export type SettingValue = string | number;

/** The longest statement the engine parses (`max_query_size`). */
export const maxStatementBytes = 16 * 1024 ** 2;

/** The settings of one statement and the tag that finds it in `system.processes`. */
export interface QuerySettings {
  readonly tag: string;
  readonly settings: Readonly<Record<string, SettingValue>>;
}

/** A fresh tag for a query the caller did not tag. */
export function newQueryTag(): string {
  return `vigil-${newId()}`;
}

/**
 * Settings every query carries: its tag, the limits (a runaway query must never hold a pool
 * session forever) and 64-bit integers as JSON strings so both adapters answer alike.
 */
export function buildQuerySettings(options: EngineQueryOptions, limits: QueryLimits): QuerySettings {
  const tag = options.tag ?? newQueryTag();
  return {
    tag,
    settings: {
      // a caller may turn quoting off (compiled searches read their Int64 results as numbers)
      output_format_json_quote_64bit_integers: 1,
      ...options.settings,
      // A query of 100,000 characters (the API's limit) with thousands of values compiles to
      // megabytes of SQL; the default 256 KiB refused value lists of about 900 IP addresses.
      max_query_size: maxStatementBytes,
      // Likewise its elements: each term compiles to a prefilter and an exact match (about 30
      // elements), so 1,500 `n = …` terms passed the default 50,000.
      max_ast_elements: 1_000_000,
      max_expanded_ast_elements: 5_000_000,
      log_comment: tag,
      max_execution_time: options.maxExecutionTimeS ?? limits.maxExecutionTimeS,
      max_memory_usage: options.maxMemoryUsageBytes ?? limits.maxMemoryUsageBytes,
    },
  };
}

const settingName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Checks a setting name, which is inlined as a bare word. */
export function checkSettingName(name: string): string {
  if (!settingName.test(name)) throw new ValidationError(`invalid engine setting name: ${JSON.stringify(name)}`);
  return name;
}

// A SETTINGS value must be a bare literal (no parentheses), and `= -1` cannot form a comment.
function settingNumber(value: number): string {
  if (!Number.isFinite(value)) throw new ValidationError(`engine setting is not a finite number: ${value}`);
  return String(value);
}

/** Renders ` SETTINGS a = 1, b = 'x'` (leading space), or '' when there are none. */
export function settingsClause(settings: Readonly<Record<string, SettingValue>>): string {
  const parts = Object.entries(settings).map(([name, value]) => `${checkSettingName(name)} = ${typeof value === 'number' ? settingNumber(value) : sqlString(value)}`);
  return parts.length === 0 ? '' : ` SETTINGS ${parts.join(', ')}`;
}
