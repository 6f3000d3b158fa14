import { describe, expect, it } from 'vitest';
import { EngineError, ErrorCodes } from '../core/index.js';
import { clickhouseCodeOf, toEngineError } from './to-engine-error.js';

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
