import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/harness.js';
import { copyTextLine } from './copy-text.js';
import { storableJson, storableText } from './storable-text.js';

// Alert ingest writes what sensors send with COPY into text and json columns; jsonb, the stricter,
// is checked here: what the database cannot hold must arrive escaped, and everything else exactly
// as it was sent.
describe('storable text through a real COPY', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    await scratch.db.query('CREATE TABLE copied (n int, t text, j jsonb)');
  });
  afterAll(() => scratch.drop());

  const copy = async (rows: { t: string; j: unknown }[]) => {
    await scratch.db.query('TRUNCATE copied');
    const lines = rows
      .map(({ t, j }, n) => copyTextLine([n, storableText(t), storableJson(JSON.stringify(j))]))
      .join('');
    await scratch.db.transaction((tx) => tx.copyFrom('COPY copied (n, t, j) FROM STDIN', lines));
    return scratch.db.query<{ t: string; j: unknown }>('SELECT t, j FROM copied ORDER BY n');
  };

  it('the database refuses NUL and lone surrogates as they come', async () => {
    for (const bad of ['GET /\0x', 'a\ud800b']) {
      const json = JSON.stringify({ url: bad });
      await expect(
        scratch.db.transaction((tx) =>
          tx.copyFrom('COPY copied (n, t, j) FROM STDIN', copyTextLine([0, null, json])),
        ),
      ).rejects.toThrow();
    }
  });

  it('keeps NUL and lone surrogates as their escape text, in values and keys', async () => {
    const back = await copy([
      { t: '/index.php?id=1\0\0', j: { http: { url: '/index.php?id=1\0\0' } } },
      { t: 'lone \ud800 high', j: { 'key\ud800': 'x\udfff', tail: '\ud83d' } },
      { t: 'low \udc00 first', j: ['\udc00\ud800'] },
    ]);
    expect(back.map((row) => row.t)).toEqual([
      '/index.php?id=1\\u0000\\u0000',
      'lone \\ud800 high',
      'low \\udc00 first',
    ]);
    expect(back.map((row) => row.j)).toEqual([
      { http: { url: '/index.php?id=1\\u0000\\u0000' } },
      { 'key\\ud800': 'x\\udfff', tail: '\\ud83d' },
      ['\\udc00\\ud800'],
    ]);
  });

  it('leaves everything else as it was, surrogate pairs and escape-like text included', async () => {
    const awkward = [
      'emoji 😀 pair',
      'text that reads \\u0000 and \\ud800 already',
      'backslashes \\\\u0000 \\',
      'control \u0001\u001f tab\tnew\nline "quoted"',
      'ünïcødé ✓',
    ];
    const back = await copy(awkward.map((t) => ({ t, j: { t, [t]: [t] } })));
    expect(back.map((row) => row.t)).toEqual(awkward);
    expect(back.map((row) => row.j)).toEqual(awkward.map((t) => ({ t, [t]: [t] })));
    for (const t of awkward) {
      expect(storableText(t)).toBe(t);
      expect(storableJson(JSON.stringify(t))).toBe(JSON.stringify(t));
    }
  });
});
