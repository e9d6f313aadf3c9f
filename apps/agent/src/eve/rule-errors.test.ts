// The engine's reasons for rules it failed to load, read from the end of a real file.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRuleErrors, ruleErrorsIn } from './rule-errors.js';

const reason = (sid: number) =>
  `error parsing signature "alert tcp any any -> any any (msg:\\"x\\"; flow:sideways; sid:${sid};)" from file /out/palisade.rules at line ${sid}`;
// Suricata 7's and 6's line formats.
const v7 = (sid: number) =>
  `[12] 28/11/2026 -- 10:00:00 - (detect-parse.c:2700) <Error> (SigInitHelper) -- ${reason(sid)}`;
const v6 = (sid: number) =>
  `28/11/2026 -- 10:00:00 - <Error> - [ERRCODE: SC_ERR_INVALID_SIGNATURE(39)] - ${reason(sid)}`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-rule-errors-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('rule errors from suricata.log', () => {
  it('keeps the reason of each error line, without time and source, last few distinct', () => {
    const log = [
      '28/11/2026 -- 10:00:00 - <Notice> - all 4 packet processing threads started',
      v6(1),
      v7(2),
      v7(2),
      ...[3, 4, 5, 6, 7].map(v7),
      '28/11/2026 -- 10:00:01 - <Info> - 35671 signatures processed',
    ].join('\n');
    expect(ruleErrorsIn(log)).toEqual([3, 4, 5, 6, 7].map(reason));
    expect(ruleErrorsIn(v6(1))).toEqual([reason(1)]);
  });

  it('reads only the end of a large log, and null for a file it cannot read', async () => {
    const file = path.join(dir, 'suricata.log');
    const filler = `${'28/11/2026 -- 09:00:00 - <Info> - stats '.padEnd(200, 'x')}\n`;
    await writeFile(file, `${v7(1)}\n${filler.repeat(2000)}${v7(9)}\n`);
    expect(await readRuleErrors(file)).toEqual([reason(9)]);
    expect(await readRuleErrors(path.join(dir, 'missing.log'))).toBeNull();
  });
});
