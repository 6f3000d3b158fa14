import type { Command } from 'commander';
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
