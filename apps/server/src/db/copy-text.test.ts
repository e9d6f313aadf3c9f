import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../test/harness.js';
import { copyTextBytes, copyTextLine } from './copy-text.js';

// Alert ingest feeds these lines to COPY: whatever text a sensor sends must come back unchanged.
describe('copyTextLine through a real COPY', () => {
  let scratch: ScratchDatabase;
  beforeAll(async () => {
    scratch = await createScratchDatabase();
    await scratch.db.query('CREATE TABLE copied (n int, t text, j jsonb)');
  });
  afterAll(() => scratch.drop());

  it.each([
    ['as one string', (lines: string[]) => lines.join('')],
    ['as UTF-8 bytes (copyTextBytes)', copyTextBytes],
  ])(
    'keeps backslashes, tabs, newlines, quotes, \\N and nulls as they were, %s',
    async (_, form) => {
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
      const lines = awkward.map((text, n) => copyTextLine([n, text, event]));
      lines.push(copyTextLine([awkward.length, null, null]));
      await scratch.db.query('TRUNCATE copied');
      await scratch.db.transaction((tx) =>
        tx.copyFrom('COPY copied (n, t, j) FROM STDIN', form(lines)),
      );

      const back = await scratch.db.query<{ n: number; t: string | null; j: unknown }>(
        'SELECT n, t, j FROM copied ORDER BY n',
      );
      expect(back.map((row) => row.t)).toEqual([...awkward, null]);
      expect(back[0]?.j).toEqual(JSON.parse(event));
      expect(back.at(-1)?.j).toBeNull();
    },
  );
});
