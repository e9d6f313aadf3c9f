// No lock-out (issue 18, item 4): a device whose agent reaches the server at 10.0.0.5:8443 runs
// a ruleset whose output policy is drop; a save that removes the rule letting the agent out is
// refused in the console with a message naming the device and the missing rule. An Operator
// cannot apply it anyway; an Administrator sees "Apply anyway" and the save then goes through.
// Routes alike: a default route that would carry the agent's connection is refused by name.
import type { Page } from '@playwright/test';
import { simulatedDevice } from '../lib/api.ts';
import { ADMIN } from '../lib/env.ts';
import {
  apiCall,
  assert,
  openSignedIn,
  signIn,
  uniqueEmail,
  visible,
  waitForNotice,
} from '../lib/ui.ts';
import { test } from '../fixtures.ts';

const ENDPOINT = { address: '10.0.0.5', port: 8443 };
const RULES = [
  { chain: 'input', action: 'accept', in_interface: 'lo', comment: 'loopback' },
  { chain: 'input', action: 'accept', states: ['established', 'related'], comment: 'replies' },
  { chain: 'output', action: 'accept', out_interface: 'lo', comment: 'loopback out' },
  { chain: 'output', action: 'accept', states: ['established', 'related'], comment: 'replies out' },
  {
    chain: 'output',
    action: 'accept',
    protocol: 'tcp',
    destination: ENDPOINT.address,
    destination_ports: String(ENDPOINT.port),
    comment: 'management',
  },
];
/** What the server answers, after the device's name. */
const MISSING =
  'would lose its connection to the server (10.0.0.5:8443/tcp): the output policy drops new ' +
  'tcp to 10.0.0.5:8443: add an output rule accepting tcp to 10.0.0.5 port 8443, or an ' +
  'output policy of accept';

/** A ruleset that keeps the agent connected, assigned to a device that reports its endpoint. */
async function guardedDevice(baseUrl: string, token: string, stamp: string) {
  const ruleset = await apiCall(baseUrl, token, 'POST', 'fwruleset/', {
    name: `Guarded ${stamp}`,
    policies: { input: 'drop', forward: 'drop', output: 'drop' },
    rules: RULES,
  });
  const device = await simulatedDevice(baseUrl, token, {
    name: `guarded-${stamp}`,
    password: 'lockout-device-pw-1',
    serverEndpoint: ENDPOINT,
  });
  await apiCall(baseUrl, token, 'PUT', `devices/${device.id}`, { firewall_id: ruleset.id });
  return { ruleset, device };
}

/**
 * Removes the management rule in the editor and saves: the review names the device the change
 * would cut off, and sending it is refused. Resolves with the editor and the refusal dialog.
 */
async function saveWithoutManagement(
  page: Page,
  ruleset: { id: number; name: string },
  device: { id: number; name: string },
) {
  await page.goto('/firewall');
  await page
    .getByRole('row', { name: new RegExp(ruleset.name) })
    .getByRole('button', { name: `Edit ${ruleset.name}` })
    .click();
  const editor = page.getByRole('dialog', { name: `Ruleset ${ruleset.name}` });
  await visible(editor.getByTestId('rule-comment').getByText('management', { exact: true }));
  await editor.getByRole('button', { name: 'Remove rule 5' }).click();
  await editor.getByRole('button', { name: 'Save' }).click();

  const review = page.getByRole('dialog', { name: 'Review changes' });
  await visible(review);
  await visible(review.getByText(`${device.name} ${MISSING}`));
  await review.getByRole('button', { name: 'Save and send to 1' }).click();

  const refused = page.getByRole('dialog', { name: 'This change would cut a device off' });
  await visible(refused);
  assert.equal(
    await refused.getByRole('alert').innerText(),
    `${device.name} ${MISSING}`,
    'the refusal names the device and the missing rule',
  );
  return { editor, refused };
}

const storedComments = async (baseUrl: string, token: string, id: number) =>
  (await apiCall(baseUrl, token, 'GET', `fwruleset/${id}`)).rules.map(
    (rule: { comment: string }) => rule.comment,
  );

test('lockout: a save cutting a device off is refused; an Administrator applies it anyway', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const { ruleset, device } = await guardedDevice(baseUrl, token, Date.now().toString(36));
  await signIn(page);
  const { editor, refused } = await saveWithoutManagement(page, ruleset, device);
  await visible(refused.getByRole('button', { name: 'Apply anyway' }));
  await shot('lockout-refused');

  // Cancel keeps the editor and the edit; nothing was saved.
  await refused.getByRole('button', { name: 'Cancel' }).click();
  await refused.waitFor({ state: 'detached' });
  assert.equal(await editor.getByTestId('rule-comment').getByText('management').count(), 0);
  assert.ok((await storedComments(baseUrl, token, ruleset.id)).includes('management'));

  // Saved again, refused again: Apply anyway sends it with the override.
  await editor.getByRole('button', { name: 'Save' }).click();
  await page
    .getByRole('dialog', { name: 'Review changes' })
    .getByRole('button', { name: 'Save and send to 1' })
    .click();
  await visible(refused);
  await refused.getByRole('button', { name: 'Apply anyway' }).click();
  await waitForNotice(page, 'Ruleset successfully updated');
  await editor.waitFor({ state: 'detached' });
  assert.deepEqual(await storedComments(baseUrl, token, ruleset.id), [
    'loopback',
    'replies',
    'loopback out',
    'replies out',
  ]);
});

test('lockout: an Operator sees the refusal without Apply anyway', async ({
  page,
  api,
  baseUrl,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const stamp = Date.now().toString(36);
  const { ruleset, device } = await guardedDevice(baseUrl, token, stamp);
  const operator = { email: uniqueEmail('operator'), password: 'Operator#2026' };
  await api.createUser(token, { ...operator, role: 'Operator' });
  await signIn(page, operator);
  const { editor, refused } = await saveWithoutManagement(page, ruleset, device);
  await visible(refused.getByText(/Only an Administrator can apply it anyway/));
  assert.equal(await refused.getByRole('button', { name: 'Apply anyway' }).count(), 0);
  await refused.getByRole('button', { name: 'Cancel' }).click();
  await refused.waitFor({ state: 'detached' });
  await visible(editor);
  assert.ok((await storedComments(baseUrl, token, ruleset.id)).includes('management'));
});

test("lockout: a route that would carry the agent's connection is refused by name; applied anyway", async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const { device } = await guardedDevice(baseUrl, token, Date.now().toString(36));
  const refusal =
    `${device.name} may lose its connection to the server (10.0.0.5:8443/tcp): route 1 ` +
    "(default via 192.0.2.1) would carry it instead of the device's own routes: check its " +
    'gateway and interface';
  await openSignedIn(page, `/firewall?tab=network&device=${device.id}`);
  await page.getByRole('switch', { name: /L3 mode/ }).check();
  await page.getByRole('button', { name: 'Add route' }).click();
  const route = page.getByRole('dialog', { name: 'New route' });
  await route.getByLabel('Destination').fill('default');
  await route.getByLabel('Gateway').fill('192.0.2.1');
  await route.getByRole('button', { name: 'Add route' }).click();
  await route.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Save routes and NAT' }).click();

  // The review says it before anything is sent; sending is refused with the same words.
  const review = page.getByRole('dialog', { name: 'Review changes' });
  assert.equal(await review.getByTestId('change-review-lockout').innerText(), refusal);
  await review.getByRole('button', { name: 'Save and send to 1' }).click();
  const refused = page.getByRole('dialog', { name: 'This change would cut a device off' });
  assert.equal(await refused.getByRole('alert').innerText(), refusal);
  await shot('lockout-route-refused');
  const stored = () => apiCall(baseUrl, token, 'GET', `devices/${device.id}/network`);
  assert.deepEqual((await stored()).routes, []);

  await refused.getByRole('button', { name: 'Apply anyway' }).click();
  await waitForNotice(page, 'Routes and NAT saved');
  assert.deepEqual(
    (await stored()).routes.map((r: { address: string; gateway: string }) => [
      r.address,
      r.gateway,
    ]),
    [['default', '192.0.2.1']],
  );
});
