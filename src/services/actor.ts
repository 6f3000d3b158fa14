/** Who performed a mutation, as recorded in the audit trail. */
export type Actor = { readonly kind: 'key'; readonly keyId: string } | { readonly kind: 'cli' } | { readonly kind: 'system' };

export const cliActor: Actor = { kind: 'cli' };

/** The audit trail's `actor` text: `key:<id>`, `cli` or `system`. */
export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'key':
      return `key:${actor.keyId}`;
    case 'cli':
      return 'cli';
    case 'system':
      return 'system';
  }
}
