/* global window -- used in code that runs in the page */
// Rules, rule groups and policies (issue 4): a real Suricata rules file uploaded through the
// console becomes a group, a policy is built from it with an alert→drop and a disable
// override, and the rendered text in the preview shows both.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ADMIN, ROOT } from '../lib/env.mjs';
import { assert, signIn, uniqueEmail, visible, waitForNotice } from '../lib/ui.mjs';

const CORPUS = path.resolve(ROOT, '../shared/corpus');
const RULES_FILE = path.join(CORPUS, 'rules/suricata/dns-events.rules');
const GROUP = 'dns-events';
const POLICY = 'Perimeter DNS';

/** The enabled rules of the corpus file, read at test time: sids in ascending order. */
async function enabledSids() {
  const text = await readFile(RULES_FILE, 'utf8');
  return text
    .split('\n')
    .filter((line) => /^(alert|drop|pass|reject)\s/.test(line))
    .map((line) => Number(/\bsid:\s*(\d+)/.exec(line)?.[1]))
    .sort((a, b) => a - b);
}

async function uploadRules(page) {
  await page.goto('/policies?tab=rules');
  await page.getByRole('button', { name: 'Upload rules' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload custom rules or rulesets' });
  await dialog.getByTestId('rules-file-input').setInputFiles(RULES_FILE);
  await visible(dialog.getByText('dns-events.rules'));
  const progressShown = page
    .getByRole('progressbar', { name: 'Upload progress' })
    .waitFor({ state: 'attached', timeout: 10_000 })
    .then(() => true);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await visible(dialog.getByTestId('import-report'), 20_000);
  assert.ok(await progressShown, 'the upload progress bar was shown');
  return dialog;
}

export const tests = [
  {
    name: 'policies: upload a Suricata rules file, its group appears, a policy with drop and disable renders them',
    async run({ page, shot }) {
      const sids = await enabledSids();
      assert.ok(sids.length >= 5, `rules in ${RULES_FILE}: ${sids.length}`);
      const [dropped, disabled] = sids;
      await signIn(page);

      const dialog = await uploadRules(page);
      await visible(dialog.getByText(`Added: ${sids.length}`));
      await visible(dialog.getByRole('cell', { name: GROUP, exact: true }));
      await waitForNotice(page, 'Rules successfully uploaded');
      await shot('rules-import-report');
      await dialog.getByRole('button', { name: 'Close' }).click();
      await dialog.waitFor({ state: 'detached' });

      // The rules table shows them; the full text comes on demand.
      const rules = page.getByRole('table', { name: 'Rules' });
      await visible(rules.getByRole('cell', { name: String(dropped), exact: true }));
      await page.getByRole('button', { name: `Show the text of rule ${dropped}` }).click();
      const text = page.getByTestId('rule-text');
      await visible(text);
      assert.match(await text.textContent(), new RegExp(`sid:${dropped};`));
      await shot('rules-text');
      await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await shot('rules');

      // The group appears with every rule of the file.
      await page.getByRole('tab', { name: 'Rule groups' }).click();
      const groupRow = page.getByRole('row', { name: new RegExp(`^${GROUP}\\b`) });
      await visible(groupRow);
      assert.match(await groupRow.textContent(), new RegExp(`${sids.length}`));
      await shot('groups');

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
      await shot('policy-overrides');
      await editor.getByRole('button', { name: 'Save' }).click();
      await waitForNotice(page, 'Policy successfully created');
      await editor.waitFor({ state: 'detached' });

      const row = page.getByRole('row', { name: new RegExp(POLICY) });
      await visible(row);
      assert.match(await row.textContent(), new RegExp(`${sids.length - 1}`));
      await shot('policies');

      // The preview is the text a sensor loads: the drop applied, the disabled rule gone.
      await page.getByRole('button', { name: `Rendered rules of ${POLICY}` }).click();
      const rendered = page.getByTestId('policy-rendered');
      await visible(rendered);
      const body = await rendered.textContent();
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
      await shot('policy-preview');
    },
  },
  {
    name: 'rules: a custom rule is refused with the parse error at the field, then added',
    async run({ page, shot }) {
      await signIn(page);
      await page.goto('/policies?tab=rules');
      await page.getByRole('button', { name: 'Add rule' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add rule' });
      const field = dialog.getByLabel('Rule text');
      await field.fill('alert tcp any any -> any 80 (msg:"broken"; sid:9000001 rev:1;)');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await visible(dialog.getByText(/^Invalid rule: /));
      await shot('rule-parse-error');
      await field.fill(
        'alert tcp any any -> any 80 (msg:"PALISADE e2e custom rule"; sid:9000001; rev:1;)',
      );
      await dialog.getByRole('button', { name: 'Save' }).click();
      await waitForNotice(page, 'Rule successfully created');
      await dialog.waitFor({ state: 'detached' });
      await page.getByLabel('Search').fill('PALISADE e2e');
      await visible(page.getByRole('cell', { name: 'PALISADE e2e custom rule' }));
    },
  },
  {
    name: 'policies: a Viewer reads policies, groups and rules without write actions',
    async run({ page, api }) {
      const admin = await api.token(ADMIN.email, ADMIN.password);
      const email = uniqueEmail('viewer');
      await api.createUser(admin, { email, password: 'Viewer#2026', role: 'Viewer' });
      await signIn(page, { email, password: 'Viewer#2026' });
      await page.goto('/policies');
      await visible(page.getByRole('table', { name: 'Policies' }));
      assert.equal(await page.getByRole('button', { name: 'New policy' }).count(), 0);
      await page.getByRole('tab', { name: 'Rule groups' }).click();
      await visible(page.getByRole('table', { name: 'Rule groups' }));
      assert.equal(await page.getByRole('button', { name: 'New group' }).count(), 0);
      await page.getByRole('tab', { name: 'Rules' }).click();
      await visible(page.getByRole('table', { name: 'Rules' }));
      assert.equal(await page.getByRole('button', { name: 'Upload rules' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Add rule' }).count(), 0);
    },
  },
  {
    name: 'policies: the screens in Arabic, right to left',
    async run({ page, shot }) {
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
      await shot('policies-ar');
      await page.getByRole('tab', { name: 'القواعد', exact: true }).click();
      await visible(page.getByRole('table', { name: 'القواعد' }));
      await shot('rules-ar');
      const rows = await page.getByRole('table', { name: 'القواعد' }).locator('tbody tr').count();
      assert.ok(rows > 0);
    },
  },
];
