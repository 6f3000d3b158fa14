import { ValidationError, hasControlCharacters } from '../core/index.js';

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

/**
 * The name of a sink, chat integration or API key: 1 to `max` characters on one line, without
 * control characters (lists print names to terminals), as rule names (detections' checkRuleFields).
 */
export function checkDisplayName(value: unknown, field = 'name', max = 256): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    throw new ValidationError(`${field} must be a non-empty string of at most ${max} characters`, { field });
  }
  if (hasControlCharacters(value)) throw new ValidationError(`${field} must not contain control characters (tabs and line breaks included)`, { field });
  return value;
}

/** A description: at most `max` characters, which may hold tabs and line breaks but no other control character. */
export function checkDescription(value: unknown, field = 'description', max = 10_000): string {
  if (typeof value !== 'string' || value.length > max) throw new ValidationError(`${field} must be a string of at most ${max} characters`, { field });
  if (hasControlCharacters(value, { multiLine: true })) throw new ValidationError(`${field} must not contain control characters other than tabs and line breaks`, { field });
  return value;
}
