import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/harness.js';

// A COPY whose references were read earlier in the transaction may skip their checks on the
// embedded database (rule imports do): that must end with the COPY, not hold for what follows.
describe('copyFrom with referencesRead', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    await scratch.db.query('CREATE TABLE parent (id int PRIMARY KEY)');
    await scratch.db.query('CREATE TABLE child (parent_id int NOT NULL REFERENCES parent (id))');
    await scratch.db.query('INSERT INTO parent (id) VALUES (1)');
  });
  afterAll(() => scratch.drop());

  it('loads the rows, and the next statement of the transaction checks foreign keys again', async () => {
    const attempt = scratch.db.transaction(async (tx) => {
      await tx.query('SELECT id FROM parent WHERE id = 1 FOR KEY SHARE');
      await tx.copyFrom('COPY child (parent_id) FROM STDIN', '1\n1\n', { referencesRead: true });
      const [copied] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM child');
      expect(copied?.n).toBe(2);
      await tx.query('INSERT INTO child (parent_id) VALUES (2)');
    });
    await expect(attempt).rejects.toMatchObject({ code: '23503' });
    const [left] = await scratch.db.query<{ n: number }>('SELECT count(*)::int AS n FROM child');
    expect(left?.n).toBe(0);
  });
});
