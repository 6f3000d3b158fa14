/** Where the signed-in key lives: this tab only (sessionStorage) unless the user asked to be remembered. */
export interface KeyStore {
  read(): string | null;
  save(key: string, rememberOnThisDevice: boolean): void;
  clear(): void;
}

const keyName = 'vigil.api_key';

/**
 * The key is kept for the tab in sessionStorage, and in localStorage only when the user ticks
 * "remember on this device"; saving always removes it from the other store, so unticking really
 * forgets it. It never goes in a URL.
 */
export function browserKeyStore(session: Storage, local: Storage): KeyStore {
  return {
    read: () => session.getItem(keyName) ?? local.getItem(keyName),
    save(key, remember) {
      (remember ? session : local).removeItem(keyName);
      (remember ? local : session).setItem(keyName, key);
    },
    clear() {
      session.removeItem(keyName);
      local.removeItem(keyName);
    },
  };
}

/** The tenant last chosen in this browser: not a secret, so it is remembered across tabs. */
export function rememberedTenant(local: Storage): { read(): string | null; save(id: string): void } {
  return {
    read: () => local.getItem('vigil.tenant_id'),
    save: (id) => local.setItem('vigil.tenant_id', id),
  };
}
