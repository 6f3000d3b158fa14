import { describe, expect, it } from 'vitest';
import { browserKeyStore } from './key-store.js';

class MemoryStorage implements Storage {
  private readonly items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

describe('the signed-in key', () => {
  it('is kept for the tab only unless remembered', () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    browserKeyStore(session, local).save('k1', false);
    expect(session.length).toBe(1);
    expect(local.length).toBe(0);
    expect(browserKeyStore(session, local).read()).toBe('k1');
  });

  it('goes to local storage only when "remember on this device" is ticked', () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    const store = browserKeyStore(session, local);
    store.save('k1', true);
    expect(local.length).toBe(1);
    expect(session.length).toBe(0);
    expect(browserKeyStore(new MemoryStorage(), local).read()).toBe('k1'); // another tab
  });

  it('signing in again without the tick forgets the remembered key', () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    const store = browserKeyStore(session, local);
    store.save('old', true);
    store.save('new', false);
    expect(local.length).toBe(0);
    expect(store.read()).toBe('new');
  });

  it('signing out clears both stores', () => {
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    const store = browserKeyStore(session, local);
    store.save('k', true);
    session.setItem('vigil.api_key', 'k');
    store.clear();
    expect(store.read()).toBeNull();
  });
});
