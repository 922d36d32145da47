import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { sqliteStore } from '../adapters/store/sqlite.ts';

/**
 * The SQLite store's quotes live in a file of their own (`<file>-offers`), swept of quotes older than they are kept.
 * The sweep runs every thousand quotes; read through the whole table instead of an index, it made every quote a
 * server stored dearer the longer the server ran.
 */
describe('the SQLite store sweeps old quotes by their time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signalbox-quotes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds the quotes to sweep through an index, not by reading every quote', async () => {
    const path = join(dir, 'signalbox.db');
    const store = sqliteStore(path);
    await store.close();
    const db = new DatabaseSync(`${path}-offers`, { readOnly: true });
    const plan = db
      .prepare('EXPLAIN QUERY PLAN DELETE FROM offer_quotes WHERE stored_at < ?')
      .all(0)
      .map((row) => (row as { detail: string }).detail);
    db.close();
    expect(plan.join('\n')).toMatch(/USING (COVERING )?INDEX offer_quotes_stored_at/);
  });
});
