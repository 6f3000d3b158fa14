/** The words of the query language (docs/query-language.md), for highlighting and completion. */

export const pipelineCommands: readonly { name: string; detail: string }[] = [
  { name: 'count', detail: 'one row: @q.count' },
  { name: 'groupbycount', detail: 'rows per distinct value, most frequent first' },
  { name: 'countdistinct', detail: 'one row: @q.uniq' },
  { name: 'stats', detail: 'aggregations by groups: stats count() as n by user' },
  { name: 'eval', detail: 'computes columns: eval x = a + b' },
  { name: 'where', detail: 'keeps the rows that pass a filter' },
  { name: 'table', detail: 'keeps only these columns, in order' },
  { name: 'rename', detail: 'renames columns: rename(a as b)' },
  { name: 'head', detail: 'the first n rows (default 10)' },
  { name: 'tail', detail: 'the last n rows (default 10)' },
  { name: 'max', detail: 'one row: @q.max' },
  { name: 'min', detail: 'one row: @q.min' },
  { name: 'avg', detail: 'one row: @q.avg' },
  { name: 'sum', detail: 'one row: @q.sum' },
  { name: 'var', detail: 'one row: @q.var (sample variance)' },
  { name: 'percentile', detail: 'one row: @q.value, nearest rank: percentile(95, ms)' },
];

/** Aggregations inside `stats` and scalar functions of `eval`. */
export const functions: readonly { name: string; detail: string }[] = [
  { name: 'count', detail: 'rows of the group' },
  { name: 'countdistinct', detail: 'distinct values' },
  { name: 'max', detail: 'greatest value' },
  { name: 'min', detail: 'least value' },
  { name: 'avg', detail: 'mean of numbers' },
  { name: 'sum', detail: 'sum of numbers' },
  { name: 'var', detail: 'sample variance' },
  { name: 'percentile', detail: 'nearest-rank percentile' },
  { name: 'if', detail: 'if(c, a, b)' },
  { name: 'coalesce', detail: 'first non-null' },
  { name: 'math.abs', detail: 'absolute value' },
  { name: 'math.round', detail: 'half away from zero' },
  { name: 'math.floor', detail: 'round down' },
  { name: 'math.ceil', detail: 'round up' },
  { name: 'lower', detail: 'ASCII lower case' },
  { name: 'upper', detail: 'ASCII upper case' },
  { name: 'len', detail: 'characters of a string' },
  { name: 'concat', detail: 'strings joined' },
];

export const keywords: readonly string[] = ['and', 'or', 'not', 'by', 'as'];

export const systemColumns: readonly string[] = ['@index', '@index_id', '@svc.datetime', '@svc.time_ns', '@svc.source_type'];

const commandNames = new Set(pipelineCommands.map((c) => c.name));

export function isCommand(word: string): boolean {
  return commandNames.has(word);
}
