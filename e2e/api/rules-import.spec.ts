// Importing a rules file through the API (`POST /rules/import`, multipart as the console
// uploads it). In strict mode one bad line refuses the whole file with a 422 naming the file
// and line, and nothing of it is stored: not its good rules, not its group. The same file
// without the bad line imports, so the rule looked for is one an import does store.
import type { ErrorResponse, ImportReport } from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import {
  groupNamed,
  importRules,
  ok,
  refusal,
  ruleCount,
  rulesText,
  uniqueName,
  uniqueSids,
} from '../lib/rest.ts';

test('rules import: a bad line in strict mode is a 422 naming it, and changes nothing', async ({
  admin,
}) => {
  const [good = 0, next = 0] = uniqueSids(2);
  const group = uniqueName('e2e-strict');
  const name = `${group}.rules`;
  const badLine = `alert tcp any any -> (msg:"no destination port"; sid:${next};)`;
  const withBadLine = `${rulesText([good])}${badLine}\n`;

  const refused = await importRules(admin, { name, text: withBadLine }, { strict: true });
  expect(refused.status()).toBe(422);
  const body: ErrorResponse = await refusal(refused);
  expect(body.code).toBe('validation_failed');
  expect(body.msg).toMatch(new RegExp(`^1 line\\(s\\) rejected; first: ${name} line 2: `));
  expect(body.details?.map((detail) => detail.field)).toEqual([`${name}:2`]);
  // Nothing of the file was kept: the good line 1 and the file's group are not there.
  expect(await ruleCount(admin, `sid:${good}`)).toBe(0);
  expect(await groupNamed(admin, group)).toBeUndefined();

  const report = await ok<ImportReport>(
    importRules(admin, { name, text: rulesText([good, next]) }, { strict: true }),
  );
  expect(report).toMatchObject({
    added: 2,
    rejected: [],
    files: [{ file: name, group, rules: 2 }],
  });
  expect(await ruleCount(admin, `sid:${good}`)).toBe(1);
  expect((await groupNamed(admin, group))?.rule_count).toBe(2);
});

test('rules import: without strict, a bad line is reported and the rest is stored', async ({
  admin,
}) => {
  const [first = 0, second = 0] = uniqueSids(2);
  const group = uniqueName('e2e-lenient');
  const name = `${group}.rules`;
  const text = `${rulesText([first])}not a rule at all\n${rulesText([second])}`;

  const report = await ok<ImportReport>(importRules(admin, { name, text }));
  expect(report.added).toBe(2);
  expect(report.rejected).toEqual([expect.objectContaining({ file: name, line: 2 })]);
  expect(await ruleCount(admin, `group:${group}`)).toBe(2);
});
