import { ValidationError } from '../core/index.js';
import type { Severity } from '../domain/index.js';

/** The severity names of docs/interface.md 2.4, in OCSF order, with their OCSF ids. */
export const severityIds: Readonly<Record<Severity, number>> = {
  Unknown: 0,
  Informational: 1,
  Low: 2,
  Medium: 3,
  High: 4,
  Critical: 5,
  Fatal: 6,
  Other: 99,
};

export const severities = Object.keys(severityIds) as Severity[];

/** What the API accepts: the names plus `Information`, the spelling of the endpoint description (2.4). */
export const severityInputs: readonly string[] = [...severities, 'Information'];

/** The stored severity of an input spelling: `Information` becomes `Informational`. ValidationError otherwise. */
export function normalizeSeverity(value: string, field = 'severity'): Severity {
  if (value === 'Information') return 'Informational';
  if ((severities as readonly string[]).includes(value)) return value as Severity;
  throw new ValidationError(`${field} must be one of ${severityInputs.join(', ')}, got ${JSON.stringify(value)}`, { field });
}
