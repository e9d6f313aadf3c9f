// A policy through the API, from rules to the text a sensor loads and back: rules imported,
// a policy on their group with one rule turned off, its render (`GET /policies/{id}/render`),
// its export (`GET /policies/{id}/export`) uploaded into a second, empty policy
// (`POST /policies/{id}/upload`), which then renders the same rules.
import type {
  ImportReport,
  Policy,
  PolicyExport,
  PolicyRender,
  RuleSummary,
  ListResponse,
} from '@palisade/contract';
import { apiTest as test, expect } from '../fixtures.ts';
import { importRules, ok, rulesText, uniqueName, uniqueSids } from '../lib/rest.ts';

/** The sids of the rules a rendered rules file enables (commented-out lines are not loaded). */
const enabledSids = (rules: string) =>
  rules
    .split('\n')
    .filter((line) => line.startsWith('alert '))
    .map((line) => Number(/sid:(\d+);/.exec(line)?.[1]));

test('policies: create, render, export and upload the export into another policy', async ({
  admin,
}) => {
  const sids = uniqueSids(3);
  const [kept = 0, off = 0, alsoKept = 0] = sids;
  const name = uniqueName('e2e-policy');
  const report = await ok<ImportReport>(
    importRules(admin, { name: `${name}.rules`, text: rulesText(sids) }),
  );
  const group = report.files[0]?.group ?? '';
  const groups = await ok<ListResponse<{ id: number; name: string }>>(
    admin.get('groups/?limit=999999&offset=0'),
  );
  const groupId = groups.data.find((g) => g.name === group)?.id;
  expect(groupId, `the group ${group} of the import`).toBeDefined();
  const rules = await ok<ListResponse<RuleSummary>>(
    admin.get(`rules/?${new URLSearchParams({ filter: `sid:${off}`, limit: '1' })}`),
  );
  const offId = rules.data[0]?.id ?? 0;

  const policy = await ok<Policy>(
    admin.post('policies/', {
      data: {
        name,
        description: 'the API round trip',
        group_ids: [groupId],
        overrides: [{ rule_id: offId, action: 'disable' }],
      },
    }),
  );
  expect(policy).toMatchObject({ name, rule_count: 2, groups: [{ id: groupId, name: group }] });

  const rendered = await ok<PolicyRender>(admin.get(`policies/${policy.id}/render`));
  expect(rendered.version).toBe(policy.version);
  expect(rendered.rule_count).toBe(2);
  expect(enabledSids(rendered.rules)).toEqual([kept, alsoKept]);

  const exported = await admin.get(`policies/${policy.id}/export`);
  expect(exported.headers()['content-disposition']).toBe(
    `attachment; filename="${name}.policy.json"`,
  );
  const file = (await exported.json()) as PolicyExport;
  expect(file).toMatchObject({
    format: 'palisade-policy',
    format_version: 1,
    name,
    description: 'the API round trip',
    groups: [group],
    overrides: [{ gid: 1, sid: off, action: 'disable' }],
  });

  const copy = await ok<Policy>(admin.post('policies/', { data: { name: `${name}-copy` } }));
  expect(copy.rule_count).toBe(0);
  const upload = await ok<{ policy: Policy; imported_export: boolean; unknown_rules: string[] }>(
    admin.post(`policies/${copy.id}/upload`, {
      multipart: {
        file: {
          name: `${name}.policy.json`,
          mimeType: 'application/json',
          buffer: Buffer.from(JSON.stringify(file)),
        },
      },
    }),
  );
  expect(upload).toMatchObject({ imported_export: true, unknown_rules: [] });
  expect(upload.policy).toMatchObject({ name: `${name}-copy`, rule_count: 2 });
  const copied = await ok<PolicyRender>(admin.get(`policies/${copy.id}/render`));
  expect(copied.rules).toBe(rendered.rules);
  expect(copied.thresholds).toBe(rendered.thresholds);
});
