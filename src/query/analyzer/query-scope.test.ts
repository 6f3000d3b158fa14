import { describe, expect, it } from 'vitest';
import { parseQueryOrThrow } from '../index.js';
import { goldenContext } from '../compiler/testing/golden-context.js';
import { analyzeQuery } from './analyze-query.js';

/** The ids of the indexes a query's analysis puts in scope. */
function scopeOf(text: string): string[] {
  const analyzed = analyzeQuery(parseQueryOrThrow(text), goldenContext).analyzed;
  if (analyzed === null) throw new Error(`does not analyze: ${text}`);
  return analyzed.scope.map((index) => index.id);
}

const userIndexes = ['i-main', 'i-cloudtrail', '7d1c1c9e-0000-4000-8000-000000000001'];

describe('the scope of a query (D18)', () => {
  it('is every user index without @index, plus the system indexes the event filter names', () => {
    expect(scopeOf('error')).toEqual(userIndexes);
    expect(scopeOf('error or @index=_detections')).toEqual([...userIndexes, 'i-detections']);
  });

  it('narrows to the indexes the event filter confines events to', () => {
    expect(scopeOf('@index=cloudtrail errorCode: *')).toEqual(['i-cloudtrail']);
    expect(scopeOf('@index=(main cloudtrail) | groupbycount eventName')).toEqual(['i-main', 'i-cloudtrail']);
    expect(scopeOf('(@index=main error) or (@index=_detections high)')).toEqual(['i-main', 'i-detections']);
    expect(scopeOf('@index=(main cloudtrail) @index=cloudtrail')).toEqual(['i-cloudtrail']);
    // Two selectors no event can meet at once: an empty scope, no rows.
    expect(scopeOf('@index=main @index=cloudtrail')).toEqual([]);
  });

  it('does not narrow where the selectors do not confine every event', () => {
    expect(scopeOf('@index=main or error')).toEqual(userIndexes);
    expect(scopeOf('not @index=main')).toEqual(userIndexes);
    // A `where` runs on the table the event filter produced: it neither narrows nor widens.
    expect(scopeOf('error | where @index=main')).toEqual(userIndexes);
  });
});
