import type { Page } from './records.js';
import type { PageOptions } from './repository-options.js';

/**
 * An uploaded lookup table (docs/compatibility.md, "Lookup tables"): a CSV whose header names
 * its columns. The file is kept as uploaded; queries read the rows the events engine holds under
 * `dataVersion`, which a replacement of the data changes.
 */
export interface LookupTableRecord {
  readonly id: string;
  readonly tenantId: string;
  /** Unique within the tenant; queries name the table by it (`| lookup NAME ...`). */
  readonly name: string;
  readonly description: string | null;
  /** The header's column names, in file order. */
  readonly columns: readonly string[];
  readonly numRows: number;
  readonly sizeBytes: number;
  readonly dataVersion: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** What an update of a lookup table may change (`undefined`: kept). */
export interface LookupTableChanges {
  readonly description?: string | null;
  /** A replacement of the data: every field below at once. */
  readonly data?: { readonly columns: readonly string[]; readonly numRows: number; readonly sizeBytes: number; readonly dataVersion: string; readonly csv: string };
}

export interface LookupTableRepository {
  /** NotFoundError for an unknown tenant; ConflictError when the tenant has a table of this name. */
  insert(table: LookupTableRecord, csv: string): Promise<void>;
  get(tenantId: string, id: string): Promise<LookupTableRecord | null>;
  /** The table with this id whatever its tenant; the caller checks the requester may see it. */
  getAnyTenant(id: string): Promise<LookupTableRecord | null>;
  getByName(tenantId: string, name: string): Promise<LookupTableRecord | null>;
  /** Every table of the tenant, by name (what a query may name). */
  listAll(tenantId: string): Promise<LookupTableRecord[]>;
  /** Tables in creation order (then id), keyset-paginated with opaque stable tokens. */
  list(tenantId: string, options: PageOptions): Promise<Page<LookupTableRecord>>;
  /** The file as uploaded (or as last replaced), or null. */
  csv(tenantId: string, id: string): Promise<string | null>;
  /** The updated table, or null when there is none. */
  update(tenantId: string, id: string, changes: LookupTableChanges, atMs: number): Promise<LookupTableRecord | null>;
  /** False when there was no such table. */
  delete(tenantId: string, id: string): Promise<boolean>;
}

/** Bytes scanned by each tenant's ad hoc queries, per UTC day (`GET /v1/info/query_capacity`). */
export interface QueryUsageRepository {
  /** Adds bytes to the tenant's day (`YYYY-MM-DD`). */
  add(tenantId: string, day: string, bytes: number): Promise<void>;
  /** Bytes from `fromDay` to `toDay`, both included. */
  total(tenantId: string, fromDay: string, toDay: string): Promise<number>;
}
