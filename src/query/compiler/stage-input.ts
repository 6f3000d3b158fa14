/**
 * What a pipeline stage reads. The first stage reads `logs` itself under the scan's conditions;
 * later stages read the stage before as a subquery. Reading `logs` directly matters: through
 * `(SELECT * FROM logs …)` ClickHouse reads the whole `attrs` JSON column instead of the typed
 * sub-columns a stage names (groupbycount over 5 M events: 19 GB read instead of 0.2 GB, see
 * docs/benchmarks-journal.md).
 */
export type StageInput =
  { readonly kind: 'logs'; readonly where: string; readonly arrayJoin?: string } | { readonly kind: 'stage'; readonly sql: string; readonly arrayJoin?: string };

/**
 * The text after `FROM`: `logs WHERE …` or `(subquery)`, with its `ARRAY JOIN` when the input is
 * fanned out (fannedOut); a clause such as GROUP BY may follow.
 */
export function fromClause(input: StageInput): string {
  const fanOut = input.arrayJoin === undefined ? '' : ` ARRAY JOIN ${input.arrayJoin}`;
  return input.kind === 'logs' ? `logs${fanOut} WHERE ${input.where}` : `(${input.sql})${fanOut}`;
}

/** The input with one more row condition (only row-wise commands add one: never to a fanned-out stage). */
export function filtered(input: StageInput, condition: string): StageInput {
  if (input.kind === 'logs') return { ...input, where: `${input.where} AND ${condition}` };
  // eslint-disable-next-line no-restricted-syntax -- internal invariant of the stage builder
  if (input.arrayJoin !== undefined) throw new Error('a fanned-out stage takes no further condition');
  return { kind: 'stage', sql: `SELECT * FROM (${input.sql}) WHERE ${condition}` };
}

/**
 * The input with each row repeated once per element of `array`, the element as `column`
 * (`ARRAY JOIN array AS column`). `SELECT *` does not include the column: select it by name.
 */
export function fannedOut(input: StageInput, array: string, column: string): StageInput {
  return { ...input, arrayJoin: `${array} AS ${column}` };
}

/** A stage's SQL as a stage input. */
export function stage(sql: string): StageInput {
  return { kind: 'stage', sql };
}
