import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError, newId, type Clock } from '../core/index.js';
import type { Engine } from '../engine/index.js';
import type { LookupTableInfo } from '../search/index.js';
import type { LookupTableRecord, Page, Store } from '../store/index.js';
import type { Actor } from './actor.js';
import type { AuditTrail } from './audit-trail.js';
import { lookupCsvLimits, readLookupCsv } from './lookup-csv.js';
import { checkDescription } from './names.js';
import type { TenantService } from './tenant-service.js';

export const maxLookupTablePageSize = 1000;

// Letters, digits, space and `_ . -`, starting and ending with a letter or digit: a bare word in
// a query when it has no space, a quoted one otherwise.
const namePattern = /^[A-Za-z0-9](?:[A-Za-z0-9_. -]{0,126}[A-Za-z0-9])?$/;

/**
 * Lookup tables (docs/compatibility.md): CSV files a tenant uploads and queries read with
 * `| lookup`. The store keeps each file and its columns; the engine holds the rows queries read,
 * under a version. A replacement writes the new version first, then points the store at it, then
 * deletes the old rows: a query running meanwhile reads one version whole.
 */
export class LookupTableService {
  constructor(
    private readonly store: Store,
    private readonly tenants: TenantService,
    /** Null in a process without the events engine: reads work, writes are refused. */
    private readonly engine: Engine | null,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
  ) {}

  /** Creates a table from an uploaded CSV; ConflictError when the tenant has one of this name. */
  async create(tenantId: string, input: { name: string; description?: string | null; file: Buffer }, actor: Actor): Promise<LookupTableRecord> {
    const name = checkLookupTableName(input.name);
    const description = input.description === undefined || input.description === null ? null : checkDescription(input.description);
    const csv = readFile(input.file);
    const table = readLookupCsv(csv);
    tenantId = (await this.tenants.ensure(tenantId)).id; // a name (`default`) stands for its tenant's id
    if (await this.store.lookupTables.getByName(tenantId, name))
      throw new ConflictError(`tenant ${JSON.stringify(tenantId)} already has a lookup table named ${JSON.stringify(name)}`, { field: 'name' });
    const engine = this.writableEngine();
    const now = this.clock.nowMs();
    const record: LookupTableRecord = {
      id: newId(),
      tenantId,
      name,
      description,
      columns: table.columns,
      numRows: table.rows.length,
      sizeBytes: input.file.length,
      dataVersion: newId(),
      createdAt: now,
      updatedAt: now,
    };
    await engine.writeLookupRows(tenantId, record.id, record.dataVersion, table.rows);
    try {
      await this.store.lookupTables.insert(record, csv);
    } catch (error) {
      await engine.deleteLookupRows(tenantId, record.id);
      throw error;
    }
    await this.audit.record(tenantId, actor, 'lookup_table.create', record.id, { name, columns: record.columns, num_rows: record.numRows });
    return record;
  }

  list(tenantId: string, pageSize: number, pageToken?: string): Promise<Page<LookupTableRecord>> {
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > maxLookupTablePageSize) {
      throw new ValidationError(`pagination[page_size] must be an integer from 1 to ${maxLookupTablePageSize}`, { field: 'pagination[page_size]' });
    }
    return this.store.lookupTables.list(tenantId, { pageSize, ...(pageToken ? { pageToken } : {}) });
  }

  /** The table with this id, if the caller may see its tenant; else 404 as for an unknown id. */
  async find(id: string, canSeeTenant: (tenantId: string) => boolean): Promise<LookupTableRecord> {
    const table = await this.store.lookupTables.getAnyTenant(id);
    if (!table || !canSeeTenant(table.tenantId)) throw new NotFoundError(`lookup table ${JSON.stringify(id)} not found`);
    return table;
  }

  /** The file as uploaded (or last replaced). */
  async csv(id: string, canSeeTenant: (tenantId: string) => boolean): Promise<{ table: LookupTableRecord; csv: string }> {
    const table = await this.find(id, canSeeTenant);
    const csv = await this.store.lookupTables.csv(table.tenantId, table.id);
    if (csv === null) throw new NotFoundError(`lookup table ${JSON.stringify(id)} not found`);
    return { table, csv };
  }

  async updateDescription(id: string, description: string | null, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<LookupTableRecord> {
    const table = await this.find(id, canSeeTenant);
    const checked = description === null ? null : checkDescription(description);
    const updated = await this.store.lookupTables.update(table.tenantId, table.id, { description: checked }, this.clock.nowMs());
    if (!updated) throw new NotFoundError(`lookup table ${JSON.stringify(id)} not found`);
    await this.audit.record(table.tenantId, actor, 'lookup_table.update', table.id, { name: table.name, changes: ['description'] });
    return updated;
  }

  /** Replaces the rows (and the columns) with a new file; queries see the old rows or the new, whole. */
  async replaceData(id: string, file: Buffer, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<LookupTableRecord> {
    const table = await this.find(id, canSeeTenant);
    const csv = readFile(file);
    const parsed = readLookupCsv(csv);
    const engine = this.writableEngine();
    const version = newId();
    await engine.writeLookupRows(table.tenantId, table.id, version, parsed.rows);
    const data = { columns: parsed.columns, numRows: parsed.rows.length, sizeBytes: file.length, dataVersion: version, csv };
    const updated = await this.store.lookupTables.update(table.tenantId, table.id, { data }, this.clock.nowMs());
    if (!updated) {
      await engine.deleteLookupRows(table.tenantId, table.id);
      throw new NotFoundError(`lookup table ${JSON.stringify(id)} not found`);
    }
    await engine.deleteLookupRows(table.tenantId, table.id, version);
    await this.audit.record(table.tenantId, actor, 'lookup_table.replace_data', table.id, { name: table.name, columns: data.columns, num_rows: data.numRows });
    return updated;
  }

  async delete(id: string, canSeeTenant: (tenantId: string) => boolean, actor: Actor): Promise<LookupTableRecord> {
    const table = await this.find(id, canSeeTenant);
    const engine = this.writableEngine();
    if (!(await this.store.lookupTables.delete(table.tenantId, table.id))) throw new NotFoundError(`lookup table ${JSON.stringify(id)} not found`);
    await engine.deleteLookupRows(table.tenantId, table.id);
    await this.audit.record(table.tenantId, actor, 'lookup_table.delete', table.id, { name: table.name });
    return table;
  }

  /** The tenant's tables as queries see them (`| lookup NAME`). */
  async queryable(tenantId: string): Promise<LookupTableInfo[]> {
    const tables = await this.store.lookupTables.listAll(tenantId);
    return tables.map((t) => ({ id: t.id, name: t.name, columns: t.columns, version: t.dataVersion }));
  }

  private writableEngine(): Engine {
    if (this.engine === null) throw new ValidationError('lookup tables are written by the process that holds the events engine: send the request to the server');
    return this.engine;
  }
}

/** A lookup table's name: 1-128 letters, digits, spaces or `_ . -`, starting and ending with a letter or digit. */
export function checkLookupTableName(value: unknown): string {
  if (typeof value !== 'string' || !namePattern.test(value)) {
    throw new ValidationError('name must be 1-128 letters, digits, spaces or _ . - starting and ending with a letter or digit', { field: 'name' });
  }
  return value;
}

function readFile(file: Buffer): string {
  if (file.length > lookupCsvLimits.maxBytes) throw new PayloadTooLargeError(`the file is over ${lookupCsvLimits.maxBytes} bytes`);
  const text = file.toString('utf8');
  if (text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(file)) throw new ValidationError('the file must be UTF-8 text', { field: 'file' });
  return text;
}
