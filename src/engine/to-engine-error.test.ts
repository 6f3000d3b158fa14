import { describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../core/index.js';
import { clickhouseCodeOf, isRowDataError, toEngineError } from './to-engine-error.js';

class FakeChdbError extends Error {
  constructor(
    message: string,
    readonly clickhouseCode?: number,
  ) {
    super(message);
  }
}

describe('toEngineError', () => {
  it.each([
    [159, ErrorCodes.engineTimeout],
    [394, ErrorCodes.engineCancelled],
    [241, ErrorCodes.engineMemoryLimit],
    [62, ErrorCodes.engineFailure],
  ])('maps ClickHouse code %i to %s', (code, expected) => {
    const cause = new FakeChdbError(`Code: ${code}. DB::Exception: something`, code);
    const error = toEngineError('running query', cause);
    expect(error).toBeInstanceOf(EngineError);
    expect(error.code).toBe(expected);
    expect(error.message).toBe(`running query: Code: ${code}. DB::Exception: something`);
    expect(error.cause).toBe(cause);
  });

  it.each([
    [62, 'Max query size exceeded (can be increased with the `max_query_size` setting): Syntax error', 'its statement is too long'],
    [306, 'Maximum parse depth (1000) exceeded. Consider rising max_parser_depth parameter.', 'its statement is nested too deeply'],
    [162, 'Too deep subqueries. Maximum: 100.', 'its statement is nested too deeply'],
    [167, 'AST is too deep. Maximum: 1000.', 'its statement is nested too deeply'],
    [168, 'AST is too big. Maximum: 50000.', 'its statement has too many elements'],
  ])('tells the caller a statement the engine refuses for its size (code %i) in its own words', (code, text, reason) => {
    const cause = new FakeChdbError(`Code: ${code}. DB::Exception: ${text}`, code);
    const error = toEngineError('running query', cause);
    expect(error.code).toBe(ErrorCodes.engineQueryTooLarge);
    expect(error.message).toBe(`the query is too large for the engine: ${reason}; use fewer values, terms or eval assignments, or split it`);
    expect(error.cause).toBe(cause);
  });

  it('reads the code from the message or a cause when no property carries it', () => {
    expect(clickhouseCodeOf(new Error('Code: 159. DB::Exception: Timeout exceeded'))).toBe(159);
    expect(clickhouseCodeOf(new Error('stream failed', { cause: new FakeChdbError('x', 394) }))).toBe(394);
    expect(clickhouseCodeOf(new Error('no code here'))).toBeUndefined();
  });

  it('reports engine_cancelled for any failure of a query the caller aborted', () => {
    expect(toEngineError('running query', new Error('socket hang up'), true).code).toBe(ErrorCodes.engineCancelled);
  });

  it('leaves an EngineError as it is', () => {
    const original = new EngineError('engine is closed', { code: ErrorCodes.unavailable });
    expect(toEngineError('running query', original)).toBe(original);
  });
});

describe('isRowDataError', () => {
  it.each([
    [117, true], // INCORRECT_DATA: a value its column refuses
    [25, true], // CANNOT_PARSE_ESCAPE_SEQUENCE: a bad escape in one row's text
    [241, false],
    [394, false],
  ])('code %i: %s', (code, expected) => {
    expect(isRowDataError(new FakeChdbError(`Code: ${code}. DB::Exception: …`, code))).toBe(expected);
  });
});

describe('toEngineError of a storage fault', () => {
  it.each([
    ['Code: 243. DB::Exception: Cannot reserve 1.00 MiB, not enough space. (NOT_ENOUGH_SPACE)', ErrorCodes.insufficientStorage, 'the disk holding the data dir is full'],
    [
      'Code: 75. DB::ErrnoException: Cannot write to file /d/engine/store/x/tmp_insert/data.bin, errno: 28, strerror: No space left on device. (CANNOT_WRITE_TO_FILE_DESCRIPTOR)',
      ErrorCodes.insufficientStorage,
      'the disk holding the data dir is full',
    ],
    [
      'Code: 1001. DB::Exception: std::__1::filesystem::filesystem_error: filesystem error: in create_directories: Operation not permitted ["/d/engine/store/3e6"]',
      ErrorCodes.unavailable,
      'the data dir cannot be written',
    ],
    ['Code: 1001. DB::Exception: filesystem error: in create_directories: Read-only file system', ErrorCodes.unavailable, 'the data dir cannot be written'],
  ])('%s', (message, code, says) => {
    const error = toEngineError('inserting events', new FakeChdbError(message));
    expect(error.code).toBe(code);
    expect(error.message).toMatch(new RegExp(`^inserting events: ${says}`));
    expect(error.message).not.toContain('/d/engine');
  });

  it('leaves other failures alone', () => {
    expect(toEngineError('running query', new FakeChdbError('Code: 62. DB::Exception: Syntax error')).code).toBe(ErrorCodes.engineFailure);
  });
});
