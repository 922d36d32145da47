import type { DatabaseSync } from 'node:sqlite';

/** Runs `body` in one transaction: committed if it returns, rolled back if it throws (node:sqlite has no helper for it). */
export function inTransaction<T>(db: DatabaseSync, body: () => T): T {
  db.exec('BEGIN');
  try {
    const result = body();
    db.exec('COMMIT');
    return result;
  } catch (e) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw e;
  }
}
