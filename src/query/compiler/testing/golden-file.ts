/** A golden file: a description, `-- query --` and the query, then the expected `-- sql --` (and more) or `-- error --`. */
export interface Golden {
  readonly description: string;
  readonly query: string;
  readonly expected: string;
}

/** Splits a golden file's text into its parts. */
export function readGolden(text: string): Golden {
  const queryAt = text.indexOf('-- query --\n');
  const resultAt = text.search(/\n-- (sql|error) --\n/);
  if (queryAt === -1) throw new Error('golden file without -- query --');
  const end = resultAt === -1 ? text.length : resultAt;
  return {
    description: text.slice(0, queryAt),
    query: text.slice(queryAt + '-- query --\n'.length, end).replace(/\n$/, ''),
    expected: resultAt === -1 ? '' : text.slice(resultAt + 1),
  };
}
