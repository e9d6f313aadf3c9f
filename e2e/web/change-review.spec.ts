// See before you send (issue 18): a save that reaches devices shows a Review changes dialog
// (how many devices, per device what it receives, the nftables diff) before anything is sent;
// Back to editing keeps the edits, Save and send saves. An assignment, a rule import and a
// policy upload ask the same way.
import { ADMIN } from '../lib/env.ts';
import {
  apiCall,
  assert,
  choose,
  openSignedIn,
  signIn,
  visible,
  waitForNotice,
} from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const SAFE = [
  { chain: 'input', action: 'accept', in_interface: 'lo', comment: 'loopback' },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
];

/** A ruleset and `count` devices running it, made through the API. */
async function assignedRuleset(baseUrl: string, token: string, name: string, count: number) {
  const ruleset = await apiCall(baseUrl, token, 'POST', 'fwruleset/', { name, rules: SAFE });
  const devices = [];
  for (let i = 0; i < count; i += 1) {
    devices.push(
      await apiCall(baseUrl, token, 'POST', 'devices/', {
        name: `${name}-${i}`.toLowerCase().replace(/\W+/g, '-'),
        password: 'review-device-pw-1',
        firewall_id: ruleset.id,
      }),
    );
  }
  return { ruleset, devices };
}

/** A rule of the e2e's own file, at a revision: what a vendor's update would change. */
const RULE_AT = (sid: number, rev: number) =>
  `alert tcp any any -> $HOME_NET 2323 (msg:"review telnet ${sid}"; sid:${sid}; rev:${rev};)\n`;

/** A group of one imported rule, a policy of it and one device running it, through the API. */
async function deviceRunningRule(baseUrl: string, token: string, name: string, sid: number) {
  const form = new FormData();
  form.append('file', new Blob([RULE_AT(sid, 1)]), `${name}.rules`);
  const response = await fetch(`${baseUrl}/api/v1/rules/import`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const report = await response.json();
  assert.equal(response.status, 200, JSON.stringify(report));
  const groups = await apiCall(baseUrl, token, 'GET', 'groups/?limit=999999&offset=0');
  const group = groups.data.find((g: { name: string }) => g.name === report.files[0].group);
  const policy = await apiCall(baseUrl, token, 'POST', 'policies/', {
    name,
    group_ids: [group.id],
  });
  await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `${name}-sensor`,
    password: 'review-device-pw-1',
    policy_id: policy.id,
  });
  return policy;
}

const versionOf = async (baseUrl: string, token: string, id: number) =>
  (await apiCall(baseUrl, token, 'GET', `devices/${id}`)).config_version_remote;

test('change review: an assigned ruleset edit shows devices and diff; back keeps it', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Reviewed ${Date.now().toString(36)}`;
  const { ruleset, devices } = await assignedRuleset(baseUrl, token, name, 2);
  const versionBefore = await versionOf(baseUrl, token, devices[0].id);
  await openSignedIn(page, '/firewall');
  await page
    .getByRole('row', { name: new RegExp(name) })
    .getByRole('button', { name: `Edit ${name}` })
    .click();
  const editor = page.getByRole('dialog', { name: `Ruleset ${name}` });
  await editor.getByRole('button', { name: 'Add rule' }).click();
  const rule = page.getByRole('dialog', { name: 'New rule', exact: true });
  await rule.getByLabel('Destination ports').fill('8443');
  await rule.getByLabel('Comment').fill('console');
  await rule.getByRole('button', { name: 'Add rule' }).click();
  await rule.waitFor({ state: 'detached' });
  await editor.getByRole('button', { name: 'Save' }).click();

  const review = page.getByRole('dialog', { name: 'Review changes' });
  await visible(review);
  assert.equal(
    await review.getByTestId('change-review-reach').textContent(),
    'Devices this change reaches: 2',
  );
  const rows = review.getByTestId('change-review-device');
  assert.equal(await rows.count(), 2);
  await rows.first().getByRole('button').first().click();
  const diff = rows.first().getByTestId('script-diff');
  await visible(diff);
  const added = (await diff.innerText()).split('\n').filter((l) => l.startsWith('+'));
  assert.ok(
    added.some((line) => /dport 8443/.test(line) && /accept/.test(line)),
    `an added accept for 8443 in:\n${await diff.innerText()}`,
  );
  await shot('change-review-ruleset');

  // Back to editing: nothing was sent, and the edit is still in the editor.
  await review.getByRole('button', { name: 'Back to editing' }).click();
  await review.waitFor({ state: 'detached' });
  const comments = await editor.getByTestId('rule-comment').allTextContents();
  assert.deepEqual(comments, ['loopback', 'replies', 'console']);
  const stored = await apiCall(baseUrl, token, 'GET', `fwruleset/${ruleset.id}`);
  assert.equal(stored.rules.length, 2);
  assert.equal(await versionOf(baseUrl, token, devices[0].id), versionBefore);

  await editor.getByRole('button', { name: 'Save' }).click();
  await review.getByRole('button', { name: 'Save and send to 2' }).click();
  await waitForNotice(page, 'Ruleset successfully updated');
  await editor.waitFor({ state: 'detached' });
  const saved = await apiCall(baseUrl, token, 'GET', `fwruleset/${ruleset.id}`);
  assert.equal(saved.rules.length, 3);
  assert.ok((await versionOf(baseUrl, token, devices[0].id)) > versionBefore);
});

test('change review: assigning a ruleset asks first and shows what the device gets', async ({
  page,
  api,
  baseUrl,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Assign ${Date.now().toString(36)}`;
  const { ruleset } = await assignedRuleset(baseUrl, token, name, 0);
  const device = await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `unassigned-${Date.now().toString(36)}`,
    password: 'review-device-pw-1',
  });
  await openSignedIn(page, '/firewall?tab=assignments');
  await visible(page.getByRole('row', { name: new RegExp(device.name) }));

  await choose(page, `Firewall of ${device.name}`, name);
  const review = page.getByRole('dialog', { name: 'Review changes' });
  await visible(review);
  assert.equal(
    await review.getByTestId('change-review-reach').textContent(),
    'Devices this change reaches: 1',
  );
  const row = review.getByTestId('change-review-device');
  await row.getByRole('button').first().click();
  assert.match((await row.getByTestId('script-diff').textContent()) ?? '', /\+table inet palisade/);
  await review.getByRole('button', { name: 'Back to editing' }).click();
  await review.waitFor({ state: 'detached' });
  const kept = await apiCall(baseUrl, token, 'GET', `devices/${device.id}`);
  assert.equal(kept.firewall_id, null);

  await choose(page, `Firewall of ${device.name}`, name);
  await review.getByRole('button', { name: 'Save and send to 1' }).click();
  await waitForNotice(page, 'Assignment saved');
  const assigned = await apiCall(baseUrl, token, 'GET', `devices/${device.id}`);
  assert.equal(assigned.firewall_id, ruleset.id);
});

test('change review: a rule import and a policy upload that reach a device ask first', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `reviewed-${Date.now().toString(36)}`;
  const sid = 9_700_000 + Math.floor(Math.random() * 99_999);
  const policy = await deviceRunningRule(baseUrl, token, name, sid);
  const review = page.getByRole('dialog', { name: 'Review changes' });
  const rendered = () => apiCall(baseUrl, token, 'GET', `policies/${policy.id}/render`);
  await signIn(page);

  // A vendor's new revision of the rule: the import is reviewed before it is made.
  await page.goto('/policies?tab=rules');
  await page.getByRole('button', { name: 'Upload rules' }).click();
  const importer = page.getByRole('dialog', { name: 'Upload custom rules or rulesets' });
  await importer.getByTestId('rules-file-input').setInputFiles({
    name: `${name}.rules`,
    mimeType: 'text/plain',
    buffer: Buffer.from(RULE_AT(sid, 2)),
  });
  await importer.getByRole('button', { name: 'Upload', exact: true }).click();
  await visible(review);
  assert.equal(
    await review.getByTestId('change-review-reach').textContent(),
    'Devices this change reaches: 1',
  );
  const device = review.getByTestId('change-review-device');
  await visible(device.getByText('Rules +0 −0 ~1'));
  await shot('change-review-import');
  await review.getByRole('button', { name: 'Back to editing' }).click();
  await review.waitFor({ state: 'detached' });
  assert.match((await rendered()).rules, new RegExp(`sid:${sid}; rev:1;`));
  await importer.getByRole('button', { name: 'Upload', exact: true }).click();
  await review.getByRole('button', { name: 'Save and send to 1' }).click();
  await visible(importer.getByTestId('import-report'));
  assert.match((await rendered()).rules, new RegExp(`sid:${sid}; rev:2;`));
  await importer.getByRole('button', { name: 'Close' }).click();
  await importer.waitFor({ state: 'detached' });

  // A disable.conf for the policy: reviewed, it shows the rule the device loses.
  await page.goto('/policies');
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Upload custom policy' }).click();
  const upload = page.getByRole('dialog', { name: `Upload custom policy into ${name}` });
  await upload.getByTestId('policy-file-input').setInputFiles({
    name: 'disable.conf',
    mimeType: 'text/plain',
    buffer: Buffer.from(`1:${sid}\n`),
  });
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await visible(review.getByText('Rules +0 −1 ~0'));
  await review.getByRole('button', { name: 'Save and send to 1' }).click();
  await visible(upload.getByText('disable.conf: 1'));
  assert.doesNotMatch((await rendered()).rules, new RegExp(`sid:${sid};`));
});
