import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/harness.js';
import { pgliteDatabase } from './client.js';
import { copyTextBytes } from './copy-text.js';

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

// Hot statements are prepared once and then run with their parameters as constants on the
// embedded database: every kind of parameter must arrive exactly as a plain query's does.
describe('prepared statements', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    await scratch.db.query('CREATE TABLE noted (id int PRIMARY KEY, note text)');
  });
  afterAll(() => scratch.drop());

  const text = `SELECT $1::text AS s, $2::int AS i, $3::float8 AS f, $4::boolean AS b,
                       $5::timestamptz AS t, $6::text[] AS texts, $7::int[] AS ints,
                       $8::json AS j, $9::text AS absent`;
  const params = [
    `it's a "quote" \\ back'slash '' ; DROP TABLE noted; --`,
    -42,
    1.5e-7,
    false,
    new Date('2026-11-29T10:11:12.345Z'),
    ['a,b', 'c"d', 'e\\f', "g'h", null, '{}', 'NULL', ''],
    [1, null, -3],
    JSON.stringify({ msg: 'l\'alerte \\u0000 "x"', n: [1, 2] }),
    null,
  ];

  it('answers what the same query answers unprepared, run after run', async () => {
    const plain = await scratch.db.query(text, params);
    for (let run = 0; run < 7; run += 1) {
      expect(await scratch.db.query({ name: 'test_every_kind', text }, params)).toEqual(plain);
    }
    const [left] = await scratch.db.query<{ n: number }>('SELECT count(*)::int AS n FROM noted');
    expect(left?.n).toBe(0);
  });

  it('runs inside a transaction, and a failed one leaves it usable', async () => {
    const insert = {
      name: 'test_insert_noted',
      text: 'INSERT INTO noted VALUES ($1::int, $2::text)',
    };
    await expect(
      scratch.db.transaction(async (tx) => {
        await tx.query(insert, [1, 'first']);
        await tx.query(insert, [1, 'again']);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await scratch.db.transaction((tx) => tx.query(insert, [2, 'second']));
    expect(await scratch.db.query('SELECT id, note FROM noted')).toEqual([
      { id: 2, note: 'second' },
    ]);
  });
});

// The embedded database reads COPY input from a file of its in-memory file system: a server
// that ingests all day must not keep one per COPY, whether the COPY loaded or failed.
describe.skipIf(process.env['TEST_DB'] === 'postgres')(
  'copyFrom input files (embedded database only: a PostgreSQL server streams the input)',
  () => {
    it('leaves no input file behind, loaded or refused', async () => {
      const pglite = await PGlite.create();
      const db = pgliteDatabase(pglite);
      const files = pglite.Module.FS as unknown as { readdir(path: string): string[] };
      const inputFiles = () => files.readdir('/tmp').filter((name) => name.includes('copy'));
      try {
        await db.query('CREATE TABLE copied (n int NOT NULL)');
        await db.copyFrom('COPY copied (n) FROM STDIN', copyTextBytes(['1\n', '2\n']));
        await expect(
          db.transaction((tx) => tx.copyFrom('COPY copied (n) FROM STDIN', '3\nthree\n')),
        ).rejects.toThrow(/invalid input syntax for type integer: "three"/);
        const rows = await db.query<{ n: number }>('SELECT n FROM copied ORDER BY n');
        expect(rows.map((row) => row.n)).toEqual([1, 2]);
        expect(inputFiles()).toEqual([]);
      } finally {
        await pglite.close();
      }
    });
  },
);
