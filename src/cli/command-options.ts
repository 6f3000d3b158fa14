import type { Command, Option } from 'commander';
import type { CliContext, GlobalOptions } from './cli-context.js';

/** Wraps a command's run so that its exit status becomes the program's. */
export type ActionWrapper = <A extends unknown[]>(run: (...args: A) => Promise<number>) => (...args: A) => Promise<void>;

/** Commander's argument parser for a repeatable option: each use appends its value. */
export const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/** A command's own options merged with the global ones (`--data-dir`, `--config`). */
export const globalsOf = (command: Command): GlobalOptions => command.optsWithGlobals() as GlobalOptions;

/** A subcommand `<verb> <id> --tenant T [--json]` and what runs it. */
export type TenantIdCommand = readonly [verb: string, run: (ctx: CliContext, id: string, options: never) => Promise<number>, description?: string];

/** Adds `<verb> <id> --tenant T [--json]` subcommands (get, delete, show…) to `parent`. */
export function addTenantIdCommands(parent: Command, ctx: CliContext, action: ActionWrapper, commands: readonly TenantIdCommand[]): void {
  for (const [verb, run, description] of commands) {
    const command = parent.command(verb);
    if (description !== undefined) command.description(description);
    command
      .argument('<id>')
      .requiredOption('--tenant <tenant>', 'tenant id')
      .option('--json', 'print JSON')
      .action(action(async (id: string, options: object, c: Command) => run(ctx, id, { ...globalsOf(c), ...options } as never)));
  }
}

/**
 * Makes a mistyped flag the first thing reported: commander checks required options before
 * unknown ones, so `vigil ingest --bogus x` would complain about --tenant. Required options are
 * checked instead just before the action runs, which is after commander has refused unknown ones.
 */
export function reportUnknownOptionsFirst(program: Command): void {
  const required = new Map<Command, Option[]>();
  const visit = (command: Command): void => {
    const mandatory = command.options.filter((option) => option.mandatory);
    for (const option of mandatory) option.makeOptionMandatory(false);
    if (mandatory.length > 0) required.set(command, mandatory);
    command.commands.forEach(visit);
  };
  visit(program);
  program.hook('preAction', (_, actionCommand) => {
    for (const option of required.get(actionCommand) ?? []) {
      if (actionCommand.getOptionValue(option.attributeName()) === undefined) {
        actionCommand.error(`error: required option '${option.flags}' not specified`, { code: 'commander.missingMandatoryOptionValue' });
      }
    }
  });
}
