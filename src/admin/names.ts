import { ValidationError } from '../core/index.js';

const tenantIdPattern = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const indexNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** Tenant ids: 1-64 characters, letters, digits and `_ . : -`, starting with a letter or digit. */
export function checkTenantId(value: string, field = 'tenant_id'): string {
  if (!tenantIdPattern.test(value)) {
    throw new ValidationError(`${field} must be 1-64 letters, digits or _ . : - starting with a letter or digit, got ${JSON.stringify(value)}`, { field });
  }
  return value;
}

/**
 * Index names: 1-128 letters, digits and `_ . -`, starting with a letter or digit. Names that
 * start with `_` are reserved for system indexes (`_detections`, `_audit`).
 */
export function checkIndexName(value: string, field = 'name'): string {
  if (value.startsWith('_')) {
    throw new ValidationError(`${field} ${JSON.stringify(value)} is reserved: names starting with _ belong to system indexes`, { field });
  }
  if (!indexNamePattern.test(value)) {
    throw new ValidationError(`${field} must be 1-128 letters, digits or _ . - starting with a letter or digit, got ${JSON.stringify(value)}`, { field });
  }
  return value;
}
