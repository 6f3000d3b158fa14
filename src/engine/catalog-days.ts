/**
 * The field catalog files each (path, type) under the day of its events (`toDate(ts)`). ClickHouse's
 * Date holds 1970-01-01 to 2149-06-06 and wraps the days of events outside it (one of 1950 is filed
 * under 2129-11-05, one of 2200 under 2020-12-25), so only a range within those days can be read
 * from its own days of the catalog.
 */

/** The end (exclusive) of the last day a Date holds, 2149-06-06. */
const dateEndMs = Date.UTC(2149, 5, 7);

/**
 * Whether [fromMs, toMs) lies within the days a Date holds: there, the catalog rows of its days
 * are those of its events, and deleting the rows of days before a cutoff in it deletes only the
 * rows of events before the cutoff.
 */
export function catalogDaysExact(fromMs: number, toMs: number): boolean {
  return fromMs >= 0 && toMs <= dateEndMs;
}
