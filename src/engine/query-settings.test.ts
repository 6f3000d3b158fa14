import { describe, expect, it } from 'vitest';
import { ValidationError } from '../core/index.js';
import { buildQuerySettings, defaultQueryLimits, settingsClause } from './query-settings.js';

describe('query settings', () => {
  it('always sets the tag, both limits, quoted 64-bit integers and room for large statements', () => {
    const { tag, settings } = buildQuerySettings({}, defaultQueryLimits);
    expect(tag).toMatch(/^vigil-[0-9a-f-]{36}$/);
    expect(settings).toEqual({
      log_comment: tag,
      max_execution_time: 300,
      max_memory_usage: 2 * 1024 ** 3,
      output_format_json_quote_64bit_integers: 1,
      max_query_size: 16 * 1024 ** 2,
      max_ast_elements: 1_000_000,
      max_expanded_ast_elements: 5_000_000,
    });
  });

  it('takes the caller’s tag and limits; extra settings cannot override them', () => {
    const { settings } = buildQuerySettings(
      { tag: 'q1', maxExecutionTimeS: 5, maxMemoryUsageBytes: 10, settings: { log_comment: 'spoof', use_skip_indexes: 0 } },
      defaultQueryLimits,
    );
    expect(settings).toMatchObject({ log_comment: 'q1', max_execution_time: 5, max_memory_usage: 10, use_skip_indexes: 0 });
  });

  it('lets a caller turn 64-bit integer quoting off', () => {
    const { settings } = buildQuerySettings({ settings: { output_format_json_quote_64bit_integers: 0 } }, defaultQueryLimits);
    expect(settings.output_format_json_quote_64bit_integers).toBe(0);
  });

  it('renders a SETTINGS clause with quoted strings and checked names', () => {
    expect(settingsClause({})).toBe('');
    expect(settingsClause({ log_comment: "it's", max_threads: 2, x: -1 })).toBe(" SETTINGS log_comment = 'it\\'s', max_threads = 2, x = -1");
    expect(() => settingsClause({ 'a = 1; DROP': 1 })).toThrow(ValidationError);
    expect(() => settingsClause({ a: Number.NaN })).toThrow(ValidationError);
  });
});
