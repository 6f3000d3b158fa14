import { isDeepStrictEqual } from 'node:util';
import { ConflictError, ErrorCodes, RunLimit, ValidationError, VigilError, messageOf, type Diagnostic } from '../core/index.js';
import { checkRuleFields, formatFileProblem, readRuleFile, ruleInputOf, type RuleDefinition, type RuleFieldsInput, type RuleFileCheck } from '../detections/index.js';
import type { IndexInfo } from '../search/index.js';
import type { DetectionRuleRecord, Store } from '../store/index.js';
import { describeActor, type Actor } from './actor.js';
import type { DetectionRuleService } from './detection-rule-service.js';
import type { IndexService } from './index-service.js';
import { checkTenantId } from './names.js';
import type { RuleTestResult, RuleTestRunner } from './rule-test-runner.js';
import { resolveSinkKeys } from './sink-key-resolver.js';

/** A rule file's text and the path it is reported under. */
export interface RuleFileInput {
  readonly path: string;
  readonly text: string;
}

/** A file's outcome from the rule-file checks (validate, then run its tests). */
export type RuleFileStatus = 'Valid' | 'Invalid' | 'ExecutionError' | 'Passed' | 'TestsFailed';

/** One file as the rule-file checks report it. */
export interface RuleFileReport {
  readonly path: string;
  readonly status: RuleFileStatus;
  readonly error?: string;
  readonly warning?: string;
  readonly tests?: readonly { readonly name: string; readonly status: 'Passed' | 'Failed' }[];
  /** The checked definition, when the file is valid. */
  readonly definition?: RuleDefinition;
}

/** What a sync needs of the rule-file service: check files of a tenant and run their tests. */
export interface RuleFileChecker {
  checkFiles(tenantId: string, files: readonly RuleFileInput[], options: { readonly runTests: boolean }): Promise<readonly RuleFileReport[]>;
}

/** One file's outcome: its status, its problems as text and as diagnostics, and its tests' results. */
export interface RuleFileResult extends RuleFileReport {
  /** Every problem (errors and warnings) with its span in the file. */
  readonly diagnostics: readonly Diagnostic[];
  readonly tests?: readonly RuleTestResult[];
  /** For `ExecutionError`: the engine's error, for callers that answer it as themselves (the API). */
  readonly failure?: VigilError;
}

/** A single-rule upsert's outcome. */
export interface UpsertResult {
  readonly rule: DetectionRuleRecord;
  readonly created: boolean;
  readonly warnings: readonly Diagnostic[];
}

/** Rule test runs (`run_tests`, upserts with `run_tests=true`) under way at once, in all and per API key. */
export const ruleTestRunsAtOnce = 4;
export const ruleTestRunsPerCaller = 2;

/** The indexes a tenant's rule may name, for checking a file against the tenant. */
export type TenantIndexes = (tenantId: string) => Promise<readonly IndexInfo[]>;

/**
 * Rule files (docs/interface.md 2.5, E14-E15) checked and tested, for the API, the CLI and repository
 * syncs. It needs no store: the CLI checks and tests files with no server and no data
 * directory. Tests need an events engine (`runner`); without one only checks are possible.
 */
export class RuleFileChecks implements RuleFileChecker {
  /** Test runs asked for over the API; repository syncs run theirs one after another anyway. */
  protected readonly testRuns = new RunLimit('rule test runs', ruleTestRunsAtOnce, ruleTestRunsPerCaller);

  constructor(
    private readonly runner: RuleTestRunner | null,
    private readonly indexesOf: TenantIndexes | null = null,
  ) {}

  /** True when this process can run rule tests. */
  get canRunTests(): boolean {
    return this.runner !== null;
  }

  /**
   * Checks a file on its own (every index its query names taken to exist), or for a tenant (its
   * query may name only the tenant's indexes).
   */
  async validate(text: string, tenantId?: string): Promise<RuleFileCheck> {
    if (tenantId === undefined) return readRuleFile(text);
    return readRuleFile(text, { indexes: await this.tenantIndexes(tenantId) });
  }

  /**
   * Checks each file and, with `runTests`, runs the tests of the valid ones (one after another:
   * the engine is shared with everything else the process does). Never throws for a file's
   * problem: it is that file's status. Statuses: `Valid` or `Invalid` without tests; `Passed`,
   * `TestsFailed`, `Invalid` or `ExecutionError` (the engine failed) with them. A null tenant
   * checks the files on their own. Stable: repository syncs call it.
   */
  async checkFiles(tenantId: string | null, files: readonly RuleFileInput[], options: { readonly runTests: boolean }): Promise<RuleFileResult[]> {
    const indexes = tenantId === null ? undefined : await this.tenantIndexes(tenantId);
    const results: RuleFileResult[] = [];
    for (const file of files) {
      const check = readRuleFile(file.text, indexes === undefined ? {} : { indexes });
      results.push(options.runTests ? await this.testChecked(file.path, check) : reportOf(file.path, check, check.definition ? 'Valid' : 'Invalid'));
    }
    return results;
  }

  /**
   * Checks one text on its own and runs its tests, for a caller (an API key) that may have
   * `ruleTestRunsPerCaller` runs under way at once (TooManyRequestsError beyond).
   */
  async runTests(text: string, caller: string, path = 'rule.yaml'): Promise<RuleFileResult> {
    return this.testRuns.run(caller, () => this.testChecked(path, readRuleFile(text)));
  }

  /** Runs the tests of a checked file; `Invalid` when it has errors. */
  async testChecked(path: string, check: RuleFileCheck): Promise<RuleFileResult> {
    const definition = check.definition;
    if (definition === null) return reportOf(path, check, 'Invalid');
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: only a composition root without the engine leaves the runner out
    if (this.runner === null) throw new Error('rule tests need the events engine, which this process does not hold');
    try {
      const tests = await this.runner.runAll(definition);
      const status = tests.every((t) => t.status === 'Passed') ? 'Passed' : 'TestsFailed';
      return { ...reportOf(path, check, status), tests };
    } catch (error) {
      if (!(error instanceof VigilError)) throw error;
      return { ...reportOf(path, check, 'ExecutionError'), error: `running the tests: ${messageOf(error)}`, failure: error };
    }
  }

  /** The definition a rule file gives in the tenant; ValidationError with every problem when it has errors. */
  async definitionOf(text: string, tenantId: string): Promise<RuleDefinition> {
    return definitionOrThrow(await this.validate(text, tenantId));
  }

  private async tenantIndexes(tenantId: string): Promise<readonly IndexInfo[]> {
    checkTenantId(tenantId);
    // eslint-disable-next-line no-restricted-syntax -- internal invariant: only a composition root without the store leaves it out
    if (this.indexesOf === null) throw new Error('checking a rule file for a tenant needs the store');
    return this.indexesOf(tenantId);
  }
}

/**
 * Rule files of a tenant: the checks and tests of RuleFileChecks, and the single-rule upsert by
 * `push_key` (`PUT /v1/detection_rule_yaml`).
 */
export class RuleFileService extends RuleFileChecks {
  constructor(
    private readonly store: Store,
    indexes: IndexService,
    private readonly rules: DetectionRuleService,
    runner: RuleTestRunner | null,
  ) {
    super(runner, async (tenantId) => (await indexes.searchable(tenantId)).map((i) => ({ id: i.id, name: i.name, system: i.kind === 'system' })));
  }

  /**
   * Creates or updates the tenant's rule whose `sync_key` is the file's `push_key` (required).
   * The query must suit the tenant's indexes, and `event_sink_keys` resolve through the tenant's
   * sink keys (`resolveSinkKeys`). A new rule without `enabled` is created Paused; an existing
   * one without it keeps its state. Only fields that differ are changed (and audited). Rules
   * synced from a repository are refused: their files are changed in the repository.
   * ValidationError with every problem's position as diagnostics.
   */
  async upsert(tenantId: string, text: string, actor: Actor, authorUserId: string | null, options: { readonly runTests?: boolean } = {}): Promise<UpsertResult> {
    checkTenantId(tenantId);
    const check = await this.validate(text, tenantId);
    const definition = definitionOrThrow(check);
    const warnings = check.diagnostics.filter((d) => d.severity === 'warning');
    if (definition.pushKey === null) {
      throw new ValidationError('push_key is required to upsert a rule: it names the rule within its tenant (the legacy spelling sync_key is accepted)', { field: 'push_key' });
    }
    if (options.runTests) {
      const tested = await this.testRuns.run(describeActor(actor), () => this.testChecked('rule', check));
      if (tested.failure) throw tested.failure;
      if (tested.status !== 'Passed') throw new ValidationError(`the rule's tests did not pass: ${tested.error ?? failedTests(tested)}`, { field: 'tests' });
    }
    const { sinkIds, unresolved } = await resolveSinkKeys(this.store, tenantId, definition.eventSinkKeys);
    if (unresolved.length > 0) {
      const diagnostics = unresolved.map((u) => {
        const span = check.spanOf(`event_sink_keys[${u.index}]`);
        return {
          severity: 'error' as const,
          code: ErrorCodes.invalidArgument,
          message: `event_sink_keys[${u.index}] ${JSON.stringify(u.key)} ${u.reason}`,
          field: `event_sink_keys[${u.index}]`,
          ...(span ? { span } : {}),
        };
      });
      throw new ValidationError(diagnostics.map(formatFileProblem).join('; '), { field: 'event_sink_keys', diagnostics });
    }
    const input = ruleInputOf(definition, sinkIds);
    for (let attempt = 0; ; attempt++) {
      const existing = await this.store.rules.getBySyncKey(tenantId, definition.pushKey);
      try {
        if (existing !== null) return { rule: await this.update(existing, input, actor), created: false, warnings };
        const rule = await this.rules.create(tenantId, { ...input, enabledStateOverride: definition.enabled ?? 'Paused' }, actor, authorUserId);
        return { rule, created: true, warnings };
      } catch (error) {
        // Another upsert of the same push_key created the rule meanwhile: update it instead.
        if (error instanceof ConflictError && error.field === 'sync_key' && attempt === 0) continue;
        throw error;
      }
    }
  }

  private async update(existing: DetectionRuleRecord, input: RuleFieldsInput, actor: Actor): Promise<DetectionRuleRecord> {
    if (existing.detectionRuleSyncId !== null) {
      throw new ValidationError(`the rule with push_key ${JSON.stringify(existing.syncKey)} (${existing.id}) is synced from a repository: change its file there`, {
        field: 'push_key',
      });
    }
    const checked = checkRuleFields(input);
    const changed: Record<string, unknown> = {};
    for (const key of Object.keys(input) as (keyof RuleFieldsInput)[]) {
      if (key === 'enabledStateOverride' && input.enabledStateOverride === null) continue;
      if (!isDeepStrictEqual(checked[key as keyof typeof checked], existing[key as keyof DetectionRuleRecord])) changed[key] = input[key];
    }
    return this.rules.update(existing.id, changed as RuleFieldsInput, (t) => t === existing.tenantId, actor);
  }
}

function reportOf(path: string, check: RuleFileCheck, status: RuleFileStatus): RuleFileResult {
  const errors = check.diagnostics.filter((d) => d.severity === 'error').map(formatFileProblem);
  const warnings = check.diagnostics.filter((d) => d.severity === 'warning').map(formatFileProblem);
  return {
    path,
    status,
    diagnostics: check.diagnostics,
    ...(errors.length > 0 ? { error: errors.join('\n') } : {}),
    ...(warnings.length > 0 ? { warning: warnings.join('\n') } : {}),
    ...(check.definition ? { definition: check.definition } : {}),
  };
}

/** The definition of a valid file; ValidationError with every error (and its span) otherwise. */
function definitionOrThrow(check: RuleFileCheck): RuleDefinition {
  if (check.definition !== null) return check.definition;
  const errors = check.diagnostics.filter((d) => d.severity === 'error');
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem${errors.length > 2 ? 's' : ''})` : '';
  throw new ValidationError(`${errors[0] ? formatFileProblem(errors[0]) : 'invalid rule file'}${more}`, { diagnostics: errors });
}

function failedTests(result: RuleFileResult): string {
  return (result.tests ?? [])
    .filter((t) => t.status === 'Failed')
    .map((t) => `${JSON.stringify(t.name)} expected ${t.expectedDetectionResult ? 'a detection' : 'no detection'}`)
    .join(', ');
}
