import { ValidationError } from '../../core/index.js';

/** The field a ValidationError names when `attempt` throws one; undefined when it does not throw. */
export function validationFieldOf(attempt: () => unknown): string | undefined {
  try {
    attempt();
  } catch (error) {
    if (error instanceof ValidationError) return error.field;
    throw error;
  }
  return undefined;
}
