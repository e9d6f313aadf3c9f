import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/harness.js';
import { copyTextLine } from './copy-text.js';

// Alert ingest feeds these lines to COPY: whatever text a sensor sends must come back unchanged.
describe('copyTextLine through a real COPY', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    await scratch.db.query('CREATE TABLE copied (n int, t text, j jsonb)');
  });
  afterAll(() => scratch.drop());

  it('keeps backslashes, tabs, newlines, quotes, \\N and nulls as they were', async () => {
    const awkward = [
      'plain',
      'tab\there',
      'line\nbreak\r\nand return',
      'back\\slash \\N and "quotes"',
      '\\N',
      '',
      'ünïcødé ✓',
    ];
    const event = JSON.stringify({ msg: 'ET POLICY "x"\t\\d+;', path: 'C:\\temp\\n' });
    let rows = '';
    awkward.forEach((text, n) => {
      rows += copyTextLine([n, text, event]);
    });
    rows += copyTextLine([awkward.length, null, null]);
    await scratch.db.transaction((tx) => tx.copyFrom('COPY copied (n, t, j) FROM STDIN', rows));

    const back = await scratch.db.query<{ n: number; t: string | null; j: unknown }>(
      'SELECT n, t, j FROM copied ORDER BY n',
    );
    expect(back.map((row) => row.t)).toEqual([...awkward, null]);
    expect(back[0]?.j).toEqual(JSON.parse(event));
    expect(back.at(-1)?.j).toBeNull();
  });
});
