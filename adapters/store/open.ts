import { memoryStore } from './memory.ts';
import { sqliteStore, type SqliteOptions } from './sqlite.ts';
import type { Store } from './store.ts';

/** `--store memory | sqlite:PATH | postgres://…` (CONTRACT §1). */
export async function openStore(spec: string, options: SqliteOptions = {}): Promise<Store> {
  if (spec === 'memory') return memoryStore();
  if (spec.startsWith('sqlite:')) return sqliteStore(spec.slice('sqlite:'.length), options);
  if (spec.startsWith('postgres://') || spec.startsWith('postgresql://')) {
    // Loaded only when asked for: memory and SQLite users never load the pg driver.
    const { postgresStore } = await import('./postgres.ts');
    return postgresStore(spec);
  }
  throw new Error(`unknown store "${spec}"; use memory, sqlite:PATH or postgres://…`);
}
