import { StoreError, VigilError } from '../../core/index.js';

/** The constraint a failed statement broke, as far as the repositories care. */
export type ConstraintViolation = 'unique' | 'foreign_key';

/** Names the constraint a driver error reports, or null; each adapter knows its driver's codes. */
export type ViolationClassifier = (error: unknown) => ConstraintViolation | null;

/** What a repository raises instead when a statement breaks a constraint it expects. */
export type ViolationErrors = Partial<Record<ConstraintViolation, (cause: unknown) => VigilError>>;

/**
 * Runs repository statements so that callers only ever see typed errors: expected constraint
 * violations become the caller's ConflictError or NotFoundError, anything else from the driver
 * becomes a StoreError naming what was being done. Errors already typed pass through unchanged.
 */
export class StoreQueryRunner {
  constructor(private readonly classify: ViolationClassifier) {}

  /** Runs `fn`; `what` names the operation in the StoreError (`inserting index`). */
  async run<T>(what: string, fn: () => Promise<T>, violations: ViolationErrors = {}): Promise<T> {
    try {
      return await fn();
    } catch (cause) {
      if (cause instanceof VigilError) throw cause;
      const violation = this.classify(cause);
      const replacement = violation === null ? undefined : violations[violation];
      if (replacement !== undefined) throw replacement(cause);
      throw new StoreError(what, { cause });
    }
  }
}
