import { EngineError, ErrorCodes, describeStorageFault, messageOf, storageFaultOf, type EngineErrorCode } from '../core/index.js';

/** ClickHouse exception codes the service tells apart; everything else is engine_failure. */
export const ClickHouseCodes = {
  timeoutExceeded: 159,
  queryWasCancelled: 394,
  memoryLimitExceeded: 241,
  /** TOO_MANY_ROWS: more rows to read than `max_rows_to_read` allows. */
  tooManyRows: 158,
  /** SYNTAX_ERROR, also raised for a statement longer than `max_query_size`. */
  syntaxError: 62,
  tooDeepSubqueries: 162,
  tooDeepAst: 167,
  tooBigAst: 168,
  /** TOO_DEEP_RECURSION: past `max_parser_depth`. */
  tooDeepRecursion: 306,
} as const;

/**
 * What a statement too large for the engine's parser or analyzer says, for the caller: the
 * query is valid, but compiles to more than the engine takes (thousands of values or terms).
 */
function tooLargeReason(clickhouseCode: number | undefined, message: string): string | null {
  switch (clickhouseCode) {
    case ClickHouseCodes.syntaxError:
      return /Max query size exceeded/.test(message) ? 'its statement is too long' : null;
    case ClickHouseCodes.tooDeepSubqueries:
    case ClickHouseCodes.tooDeepAst:
    case ClickHouseCodes.tooDeepRecursion:
      return 'its statement is nested too deeply';
    case ClickHouseCodes.tooBigAst:
      return 'its statement has too many elements';
    default:
      return null;
  }
}

const codePattern = /\bCode:\s*(\d+)\b/;

/**
 * The ClickHouse exception code of an error: a numeric `clickhouseCode` (chDB) on the error or
 * its causes, else the `Code: N.` prefix of the message (what the HTTP interface sends).
 */
export function clickhouseCodeOf(error: unknown): number | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    if (typeof current === 'object' && 'clickhouseCode' in current) {
      const code = (current as { clickhouseCode?: unknown }).clickhouseCode;
      if (typeof code === 'number') return code;
    }
    const match = codePattern.exec(messageOf(current));
    if (match) return Number(match[1]);
    current = current instanceof Error ? current.cause : undefined;
  }
  return undefined;
}

function codeFor(clickhouseCode: number | undefined): EngineErrorCode {
  switch (clickhouseCode) {
    case ClickHouseCodes.timeoutExceeded:
      return ErrorCodes.engineTimeout;
    case ClickHouseCodes.queryWasCancelled:
      return ErrorCodes.engineCancelled;
    case ClickHouseCodes.memoryLimitExceeded:
      return ErrorCodes.engineMemoryLimit;
    case ClickHouseCodes.tooManyRows:
      return ErrorCodes.engineReadLimit;
    default:
      return ErrorCodes.engineFailure;
  }
}

/**
 * Wraps an engine failure as an EngineError: `context` says what was being done (`running
 * query`), the ClickHouse message follows, the original stays as `cause`. `cancelled` forces
 * engine_cancelled, for failures that happened because the caller aborted.
 */
export function toEngineError(context: string, error: unknown, cancelled = false): EngineError {
  if (error instanceof EngineError) return error;
  // a full disk or a data dir that cannot be written: the operator's to fix, and it passes
  const fault = cancelled ? null : storageFaultOf(error);
  if (fault !== null) {
    const { code, message } = describeStorageFault(fault, context);
    return new EngineError(message, { code, cause: error });
  }
  const clickhouseCode = clickhouseCodeOf(error);
  const tooLarge = cancelled ? null : tooLargeReason(clickhouseCode, messageOf(error));
  if (tooLarge !== null) {
    return new EngineError(`the query is too large for the engine: ${tooLarge}; use fewer values, terms or eval assignments, or split it`, {
      code: ErrorCodes.engineQueryTooLarge,
      cause: error,
    });
  }
  const code = cancelled ? ErrorCodes.engineCancelled : codeFor(clickhouseCode);
  return new EngineError(`${context}: ${messageOf(error)}`, { code, cause: error });
}

/** The error of a query the caller cancelled before the engine answered. */
export function cancelledError(context: string): EngineError {
  return new EngineError(`${context}: cancelled`, { code: ErrorCodes.engineCancelled });
}

/**
 * ClickHouse codes for input a row's data cannot be read as (a value the column type refuses,
 * such as a number out of range, or text that does not parse). An insert failing with one of
 * these failed because of some row in it, not because the engine is unwell, so retrying the
 * other rows alone can succeed.
 */
const rowDataCodes: ReadonlySet<number> = new Set([
  6, // CANNOT_PARSE_TEXT
  25, // CANNOT_PARSE_ESCAPE_SEQUENCE (a lone surrogate escape, which ingest no longer writes)
  26, // CANNOT_PARSE_QUOTED_STRING
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  38, // CANNOT_PARSE_DATE
  41, // CANNOT_PARSE_DATETIME
  53, // TYPE_MISMATCH
  69, // ARGUMENT_OUT_OF_BOUND
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER
  117, // INCORRECT_DATA
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
]);

/** True when an insert failed because the engine refused the data of some row in it. */
export function isRowDataError(error: unknown): boolean {
  const code = clickhouseCodeOf(error);
  return code !== undefined && rowDataCodes.has(code);
}
