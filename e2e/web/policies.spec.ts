/* global window -- used in code that runs in the page */
// Policies (issue 4): a real Suricata rules file uploaded through the console becomes a group,
// a policy is built from it with an alert→drop and a disable override, and the rendered text
// in the preview shows both; custom policy uploads, export, download; Viewers; Arabic.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ADMIN } from '../lib/env.ts';
import { snap, suricataRulesFile, uploadRules } from '../lib/ids.ts';
import { assert, openSignedIn, signIn, uniqueEmail, visible, waitForNotice } from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const RULES_FILE = await suricataRulesFile('dns-events.rules');
const GROUP = 'dns-events';
const POLICY = 'Perimeter DNS';

/** The enabled rules of the file, read at test time: sids in ascending order. */
async function enabledSids() {
  const text = await readFile(RULES_FILE, 'utf8');
  return text
    .split('\n')
    .filter((line) => /^(alert|drop|pass|reject)\s/.test(line))
    .map((line) => Number(/\bsid:\s*(\d+)/.exec(line)?.[1]))
    .sort((a, b) => a - b);
}

/** Arranges state through the API (never to check the UI): a rules file and a policy on it. */
async function arrangePolicy(
  baseUrl: string,
  token: string,
  { file, name, overrides = true }: { file: string; name: string; overrides?: boolean },
) {
  const call = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${baseUrl}/api/v1/${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...init.headers },
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
    return body;
  };
  const form = new FormData();
  form.append('file', new Blob([await readFile(file)]), path.basename(file));
  const report = await call('rules/import', { method: 'POST', body: form });
  const groupName = report.files[0].group;
  const groups = await call('groups/?limit=999999&offset=0');
  const group = groups.data.find((g: { name: string }) => g.name === groupName);
  const rules = await call(`rules/?limit=5000&offset=0&sortBy=sid&filter=group_id:${group.id}`);
  const enabled = rules.data.filter((r: { enabled: boolean }) => r.enabled);
  const policy = await call('policies/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      name,
      group_ids: [group.id],
      overrides: overrides ? [{ rule_id: enabled[0].id, action: 'drop' }] : [],
    }),
  });
  return { policy, group, enabled };
}

test('policies: the preview lists a rule enabled for flowbits, until the editor turns it off', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Flows ${Date.now().toString(36)}`;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'palisade-e2e-flowbits-'));
  const file = path.join(dir, `flows-${Date.now().toString(36)}.rules`);
  await writeFile(
    file,
    [
      'alert http any any -> any any (msg:"E2E stage two"; flowbits:isset,e2e.stage1; sid:7700001; rev:1;)',
      '# alert http any any -> any any (msg:"E2E stage one"; flowbits:set,e2e.stage1; sid:7700002; rev:1;)',
      '',
    ].join('\n'),
  );
  await arrangePolicy(baseUrl, token, { file, name, overrides: false });
  await openSignedIn(page, '/policies');

  await page.getByRole('button', { name: `Rendered rules of ${name}` }).click();
  const listed = page.getByTestId('policy-flowbit-rules');
  await visible(listed);
  assert.match((await listed.textContent()) ?? '', /1:7700002 E2E stage one/);
  assert.match(
    (await page.getByTestId('policy-rendered').textContent()) ?? '',
    /flowbits:set,e2e\.stage1; noalert; sid:7700002;/,
  );
  await snap(page, shot, 'policy-preview-flowbits');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();

  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const editor = page.getByRole('dialog', { name: `Edit ${name}` });
  const checkbox = editor.getByRole('checkbox', {
    name: 'Enable the rules that enabled rules need for their flowbits',
  });
  assert.ok(await checkbox.isChecked(), 'on by default');
  await checkbox.uncheck();
  await editor.getByRole('button', { name: 'Save' }).click();
  await editor.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: `Rendered rules of ${name}` }).click();
  // The preview shows the text it had until the new render arrives.
  await page.getByTestId('policy-flowbit-rules').waitFor({ state: 'detached' });
  const rendered = page.getByTestId('policy-rendered');
  await visible(rendered);
  assert.ok(!((await rendered.textContent()) ?? '').includes('sid:7700002;'), 'the writer is gone');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await rm(dir, { recursive: true, force: true });
});

test('policies: upload a Suricata rules file, its group appears, a policy with drop and disable renders them', async ({
  page,
  shot,
}) => {
  const sids = await enabledSids();
  assert.ok(sids.length >= 5, `rules in ${RULES_FILE}: ${sids.length}`);
  const [dropped, disabled] = sids;
  await signIn(page);

  const dialog = await uploadRules(page, RULES_FILE);
  await visible(dialog.getByText(`Added: ${sids.length}`));
  await visible(dialog.getByRole('cell', { name: GROUP, exact: true }));
  await waitForNotice(page, 'Rules successfully uploaded');
  await snap(page, shot, 'rules-import-report');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await dialog.waitFor({ state: 'detached' });

  // The rules table shows them; the full text comes on demand.
  const rules = page.getByRole('table', { name: 'Rules' });
  await visible(rules.getByRole('cell', { name: String(dropped), exact: true }));
  await page.getByRole('button', { name: `Show the text of rule ${dropped}` }).click();
  const text = page.getByTestId('rule-text');
  await visible(text);
  assert.match((await text.textContent()) ?? '', new RegExp(`sid:${dropped};`));
  await snap(page, shot, 'rules-text');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await snap(page, shot, 'rules');

  // The group appears with every rule of the file.
  await page.getByRole('tab', { name: 'Rule groups' }).click();
  const groupRow = page.getByRole('row', { name: new RegExp(`^${GROUP}\\b`) });
  await visible(groupRow);
  assert.match((await groupRow.textContent()) ?? '', new RegExp(`${sids.length}`));
  await snap(page, shot, 'groups');

  // A policy from the group, with alert→drop on one rule and a disable on another.
  await page.getByRole('tab', { name: 'Policies' }).click();
  await page.getByRole('button', { name: 'New policy' }).click();
  const editor = page.getByRole('dialog', { name: 'New policy' });
  await editor.getByLabel('Name').fill(POLICY);
  await editor.getByLabel('Groups').click();
  await page.getByRole('option', { name: GROUP, exact: true }).click();
  await editor.getByRole('tab', { name: /^Overrides/ }).click();
  await editor.getByRole('checkbox', { name: `Select rule ${dropped}` }).check();
  await editor.getByRole('button', { name: 'Alert → drop selected' }).click();
  await editor.getByRole('checkbox', { name: `Select rule ${disabled}` }).check();
  await editor.getByRole('button', { name: 'Disable selected' }).click();
  await visible(editor.getByRole('tab', { name: 'Overrides (2)' }));
  assert.equal(await editor.getByTestId('override-row').count(), 2);
  await snap(page, shot, 'policy-overrides');

  // A suppression, and the restrict-access section an Administrator edits.
  const suppressed = sids[2];
  await editor.getByRole('tab', { name: /^Thresholds/ }).click();
  await editor.getByRole('button', { name: 'Add threshold' }).click();
  const threshold = page.getByRole('dialog', { name: 'Threshold' });
  await threshold.getByLabel('sid', { exact: true }).fill(String(suppressed));
  await threshold.getByLabel('Track').click();
  await page.getByRole('option', { name: 'by_src' }).click();
  await threshold.getByLabel('Address').fill('10.1.2.3');
  await threshold.getByRole('button', { name: 'Save' }).click();
  await threshold.waitFor({ state: 'detached' });
  const suppression = `suppress gen_id 1, sig_id ${suppressed}, track by_src, ip 10.1.2.3`;
  await visible(editor.getByText(suppression));
  await editor.getByRole('tab', { name: 'Restrict access' }).click();
  await visible(editor.getByLabel('Editors'));
  await snap(page, shot, 'policy-access');
  await editor.getByRole('button', { name: 'Save' }).click();
  await waitForNotice(page, 'Policy successfully created');
  await editor.waitFor({ state: 'detached' });

  const row = page.getByRole('row', { name: new RegExp(POLICY) });
  await visible(row);
  assert.match((await row.textContent()) ?? '', new RegExp(`${sids.length - 1}`));
  await snap(page, shot, 'policies');

  // The preview is the text a sensor loads: the drop applied, the disabled rule gone.
  await page.getByRole('button', { name: `Rendered rules of ${POLICY}` }).click();
  const rendered = page.getByTestId('policy-rendered');
  await visible(rendered);
  const body = (await rendered.textContent()) ?? '';
  const lines = body.split('\n').filter((line) => line.trim() !== '');
  assert.equal(lines.length, sids.length - 1);
  const dropLine = lines.find((line) => line.includes(`sid:${dropped};`));
  assert.ok(dropLine?.startsWith('drop '), `rule ${dropped} is dropped: ${dropLine}`);
  assert.ok(!body.includes(`sid:${disabled};`), `rule ${disabled} is disabled`);
  assert.ok(
    lines.filter((line) => line !== dropLine).every((line) => line.startsWith('alert ')),
    'the other rules keep their action',
  );
  await visible(page.getByText(`${sids.length - 1} rules`));
  assert.equal(
    ((await page.getByTestId('policy-thresholds').textContent()) ?? '').trim(),
    suppression,
  );
  await snap(page, shot, 'policy-preview');
  // threshold.config downloads as its own file, the text the preview shows.
  const thresholdDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download threshold.config' }).click();
  const thresholdFile = await thresholdDownload;
  assert.match(thresholdFile.suggestedFilename(), /\.threshold\.config$/);
  assert.equal((await readFile(await thresholdFile.path(), 'utf8')).trim(), suppression);
});

test('policies: a Viewer reads policies, groups and rules without write actions', async ({
  page,
  api,
}) => {
  const admin = await api.token(ADMIN.email, ADMIN.password);
  const email = uniqueEmail('viewer');
  await api.createUser(admin, { email, password: 'Viewer#2026', role: 'Viewer' });
  await openSignedIn(page, '/policies', { email, password: 'Viewer#2026' });
  await visible(page.getByRole('table', { name: 'Policies' }));
  assert.equal(await page.getByRole('button', { name: 'New policy' }).count(), 0);
  await page.getByRole('tab', { name: 'Rule groups' }).click();
  await visible(page.getByRole('table', { name: 'Rule groups' }));
  assert.equal(await page.getByRole('button', { name: 'New group' }).count(), 0);
  await page.getByRole('tab', { name: 'Rules' }).click();
  await visible(page.getByRole('table', { name: 'Rules' }));
  assert.equal(await page.getByRole('button', { name: 'Upload rules' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Add rule' }).count(), 0);
});

test('policies: the screens in Arabic, right to left', async ({ page, shot }) => {
  await signIn(page);
  await page.evaluate(() =>
    window.localStorage.setItem(
      'palisade.main',
      JSON.stringify({ drawer: 'shown', language: 'ar' }),
    ),
  );
  await page.goto('/policies');
  await visible(page.getByRole('heading', { level: 1, name: 'السياسات' }));
  await visible(page.getByRole('tab', { name: 'مجموعات القواعد' }));
  await snap(page, shot, 'policies-ar');
  await page.getByRole('tab', { name: 'القواعد', exact: true }).click();
  await visible(page.getByRole('table', { name: 'القواعد' }));
  await snap(page, shot, 'rules-ar');
  const rows = await page.getByRole('table', { name: 'القواعد' }).locator('tbody tr').count();
  assert.ok(rows > 0);
});

test('policies: upload a disable.conf, export, download the rules; a group in use is kept', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `Mail ${Date.now().toString(36)}`;
  const file = await suricataRulesFile('smtp-events.rules');
  const { group, enabled } = await arrangePolicy(baseUrl, token, { file, name });
  const [dropped, disabled] = enabled;
  await openSignedIn(page, '/policies');

  // Upload custom policies: a suricata-update disable.conf line by gid:sid.
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Upload custom policy' }).click();
  const upload = page.getByRole('dialog', { name: `Upload custom policy into ${name}` });
  await upload.getByTestId('policy-file-input').setInputFiles({
    name: 'disable.conf',
    mimeType: 'text/plain',
    buffer: Buffer.from(`# turned off by the e2e test\n1:${disabled.sid}\n`),
  });
  await upload.getByRole('button', { name: 'Upload', exact: true }).click();
  await visible(upload.getByTestId('policy-upload-report'));
  await visible(upload.getByText('disable.conf: 1'));
  await waitForNotice(page, 'Policy successfully uploaded');
  await snap(page, shot, 'policy-upload-report');
  await upload.getByRole('button', { name: 'Close' }).click();
  await upload.waitFor({ state: 'detached' });

  await page.getByRole('button', { name: `Rendered rules of ${name}` }).click();
  const rendered = page.getByTestId('policy-rendered');
  await visible(rendered);
  const text = (await rendered.textContent()) ?? '';
  assert.ok(!text.includes(`sid:${disabled.sid};`), 'the uploaded disable.conf applies');
  assert.match(text, new RegExp(`^drop [^\\n]*sid:${dropped.sid};`, 'm'));
  const renderedLines = text.split('\n').filter((line) => line.trim() !== '');
  assert.equal(renderedLines.length, enabled.length - 1);

  // Download the rendered rules (the same text) from the preview.
  const rulesDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download rules' }).click();
  const rulesFile = await rulesDownload;
  assert.match(rulesFile.suggestedFilename(), /\.rules$/);
  const downloaded = await readFile(await rulesFile.path(), 'utf8');
  assert.equal(downloaded.trim(), text.trim());
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });

  // Export: our own JSON file, rules by (gid, sid).
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  const exportDownload = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: 'Export' }).click();
  const exported = JSON.parse(await readFile(await (await exportDownload).path(), 'utf8'));
  assert.equal(exported.format, 'palisade-policy');
  assert.equal(exported.name, name);
  assert.deepEqual(exported.groups, [group.name]);
  assert.deepEqual(exported.overrides, [{ gid: 1, sid: dropped.sid, action: 'drop' }]);

  // The editor names the overridden rule and lists the uploaded line.
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  const editor = page.getByRole('dialog', { name: `Edit ${name}` });
  await editor.getByRole('tab', { name: 'Overrides (1)' }).click();
  await visible(editor.getByRole('cell', { name: dropped.msg }));
  await editor.getByRole('tab', { name: 'Uploaded lines (1)' }).click();
  await visible(editor.getByText(`1:${disabled.sid}`));
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await editor.waitFor({ state: 'detached' });

  // A group a policy uses is not deleted, and the console says why.
  await page.getByRole('tab', { name: 'Rule groups' }).click();
  await page.getByRole('button', { name: `Delete ${group.name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'The group is used by a policy and cannot be deleted');
  await visible(page.getByRole('row', { name: new RegExp(`^${group.name}\\b`) }));
});
