/* global document -- used in code that runs in the page */
// Devices and variable profiles (issue 5, point 3): the key/value editor shows the server's
// message at the bad row; a new device shows its status chips, its enrolment and the manual
// start-up command; the table fits 1280 px with its row actions in view, in ltr and rtl.
import type { Locator, Page } from '@playwright/test';
import { ADMIN } from '../lib/env.ts';
import {
  apiCall,
  choose,
  assert,
  openSignedIn,
  signIn,
  uniqueEmail,
  visible,
  waitForNotice,
} from '../lib/ui.ts';
import { expect, test } from '../fixtures.ts';

/** Asserts the control is wholly inside the viewport and nothing covers its middle. */
async function assertInViewAndOnTop(page: Page, control: Locator, what: string) {
  const box = await control.boundingBox();
  const { width, height } = page.viewportSize() ?? { width: 0, height: 0 };
  assert.ok(
    box !== null &&
      box.x >= 0 &&
      box.y >= 0 &&
      box.x + box.width <= width &&
      box.y + box.height <= height,
    `${what} is inside the ${width}x${height} viewport: ${JSON.stringify(box)}`,
  );
  const onTop = await control.evaluate(
    (element: Element, point: { x: number; y: number }) =>
      element.contains(document.elementFromPoint(point.x, point.y)),
    { x: box.x + box.width / 2, y: box.y + box.height / 2 },
  );
  assert.ok(onTop, `${what} is not covered`);
}

/** The devices table's scrolling box does not scroll sideways. */
async function assertNoSidewaysScroll(table: Locator) {
  const { scrollWidth, clientWidth } = await table.evaluate((element) => ({
    scrollWidth: element.parentElement!.scrollWidth,
    clientWidth: element.parentElement!.clientWidth,
  }));
  assert.ok(scrollWidth <= clientWidth, `table scrolls sideways: ${scrollWidth} > ${clientWidth}`);
}

test('profiles: a bad value shows the server message at its row; saved profile is listed', async ({
  page,
  shot,
}) => {
  const name = `Office ${Date.now().toString(36)}`;
  await openSignedIn(page, '/firewall?tab=profiles');
  await page.getByRole('button', { name: 'New profile' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Value of HOME_NET').fill('[10.300.0.1,192.168.0.0/16]');
  await dialog.getByRole('button', { name: 'Add variable' }).click();
  await dialog.getByLabel('Variable name 3').fill('HTTP_PORTS');
  await dialog.getByLabel('Value of HTTP_PORTS').fill('80,8080');
  await dialog.getByRole('button', { name: 'Create profile' }).click();
  const message = 'HOME_NET: "10.300.0.1" is not an IP address or CIDR block';
  const row = dialog.getByTestId('variable-row').filter({ hasText: message });
  await visible(row);
  assert.equal(await row.getByLabel('Variable name 1').inputValue(), 'HOME_NET');
  await waitForNotice(page, message);
  await shot('profile-bad-value');

  await dialog.getByLabel('Value of HOME_NET').fill('[10.0.0.0/8,192.168.0.0/16]');
  await dialog.getByRole('button', { name: 'Create profile' }).click();
  await waitForNotice(page, 'Profile created');
  await dialog.waitFor({ state: 'detached' });
  const listed = page.getByRole('row', { name: new RegExp(name) });
  await visible(listed);
  for (const variable of ['HOME_NET', 'EXTERNAL_NET', 'HTTP_PORTS']) {
    assert.match((await listed.textContent()) ?? '', new RegExp(variable));
  }
  await shot('profiles');

  await listed.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'Profile deleted');
  await listed.waitFor({ state: 'detached' });
});

test('profiles: one a device uses is not deleted', async ({ page, api, baseUrl }) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const profile = await apiCall(baseUrl, token, 'POST', 'deviceconfigurationprofiles/', {
    name: `Kept ${Date.now().toString(36)}`,
    variables: { HOME_NET: '10.9.0.0/16' },
  });
  await apiCall(baseUrl, token, 'POST', 'devices/', {
    name: `keeper-${Date.now().toString(36)}`,
    password: 'profile-device-pw-1',
    profile_id: profile.id,
  });
  await openSignedIn(page, '/firewall?tab=profiles');
  const row = page.getByRole('row', { name: new RegExp(profile.name) });
  await row.getByRole('button', { name: `Delete ${profile.name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'Devices use this profile');
  await visible(row);
});

test('devices: create with a profile; chips Unknown and Update Pending; enrol dialog; delete', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const profile = await apiCall(baseUrl, token, 'POST', 'deviceconfigurationprofiles/', {
    name: `Branch ${Date.now().toString(36)}`,
    variables: { HOME_NET: '10.1.0.0/16' },
  });
  const name = `edge-${Date.now().toString(36)}`;
  await signIn(page);
  await page.getByRole('button', { name: 'New device' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Address').fill('203.0.113.7');
  await dialog.getByLabel('City').fill('Berlin');
  await choose(page, 'Profile', profile.name);
  const password = await dialog.getByLabel('Agent password').inputValue();
  assert.ok(password.length >= 12, 'a password is generated');
  await shot('device-create');
  await dialog.getByRole('button', { name: 'Create device' }).click();
  await waitForNotice(page, 'Device created');

  const enrol = page.getByRole('dialog', { name: `Enrol ${name} as a sensor` });
  await visible(enrol);
  const created = await api.get(token, `devices/?limit=10&offset=0&filter=name:${name}`);
  const device = created.data[0];
  const install = enrol.getByLabel('Install command', { exact: true });
  await visible(install);
  // A new token replaces the shown one, after a confirmation.
  const first = (await install.textContent()) ?? '';
  await enrol.getByRole('button', { name: 'Issue a new token' }).click();
  await page
    .getByRole('dialog')
    .filter({ hasText: 'Issue a new token?' })
    .getByRole('button', { name: 'Issue', exact: true })
    .click();
  await visible(install.filter({ hasNotText: first }));
  assert.match((await install.textContent()) ?? '', /--token pse_\d+_[\w-]{43}$/);
  // The manual way, folded under Advanced, still names the password once.
  await enrol.getByRole('button', { name: 'Advanced: run the agent by hand' }).click();
  const command =
    (await enrol.getByLabel('Agent start-up command', { exact: true }).textContent()) ?? '';
  assert.equal(
    command,
    `palisade-agent run --server ${baseUrl} --device-id ${device.id} --password-file /etc/palisade/agent.secret --output-dir /etc/suricata/palisade --eve /var/log/suricata/eve.json --reload-cmd "suricatasc -c reload-rules"`,
  );
  assert.match(
    (await enrol.getByLabel('Password file commands', { exact: true }).textContent()) ?? '',
    new RegExp(password),
  );
  assert.equal(device.profile_id, profile.id);
  await shot('device-startup');
  await enrol.getByRole('button', { name: 'Close' }).click();
  await enrol.waitFor({ state: 'detached' });

  const row = page.getByRole('row', { name: new RegExp(name) });
  // Reopened while its token is unused: the token is not shown again, nor silently replaced.
  await row.getByRole('button', { name: `Enrol ${name}` }).click();
  await visible(enrol.getByText(/^An unused token expires/));
  assert.equal(await install.count(), 0);
  await enrol.getByRole('button', { name: 'Close' }).click();
  await enrol.waitFor({ state: 'detached' });

  const chips = row.getByTestId('device-status');
  await visible(chips.getByText('Unknown', { exact: true }));
  await visible(chips.getByText('Update Pending', { exact: true }));
  assert.equal(await chips.getByText('Online', { exact: true }).count(), 0);
  assert.match((await row.textContent()) ?? '', new RegExp(profile.name));

  await page.getByLabel('Search').fill('city:Berlin');
  await visible(row);
  await page.getByLabel('Search').fill('city:Nowhere');
  await visible(page.getByText('No device matches the search.'));
  await page.getByLabel('Search').fill('');
  await visible(row);
  await shot('devices');

  await row.getByRole('button', { name: `Flush ${name}` }).click();
  await waitForNotice(page, 'Flush requested');
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await waitForNotice(page, 'Device deleted');
  await row.waitFor({ state: 'detached' });
});

test('devices: at 1280x800 with the drawer open the row actions are in view (ltr and rtl)', async ({
  page,
  api,
  baseUrl,
  shot,
}) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const stamp = Date.now().toString(36);
  const name = `wide-${stamp}-sensor-with-a-rather-long-name-in-the-frankfurt-dmz`;
  await apiCall(baseUrl, token, 'POST', 'devices/', {
    name,
    description: 'Tap behind the load balancers of the web shop, second floor rack 12',
    address: '2001:db8:85a3:1200:3400:8a2e:370:7334',
    city: 'Frankfurt am Main',
    password: 'wide-device-pw-2026',
  });
  assert.deepEqual(page.viewportSize(), { width: 1280, height: 800 });
  await signIn(page);
  // The drawer is open (its toggle offers to collapse it).
  await visible(page.getByRole('button', { name: 'Collapse navigation' }));
  // By role only: its name is translated below.
  const table = page.getByRole('table');
  const first = table.locator('tbody tr.data-row').first();
  await visible(first);
  await assertNoSidewaysScroll(table);
  for (const action of ['Enrol', 'Flush', 'Edit', 'Delete']) {
    const control = first.getByRole('button', { name: new RegExp(`^${action} `) });
    await assertInViewAndOnTop(page, control, `${action} of the first row`);
  }

  // The widest row of this test, found by its name: its actions as well, then one used.
  await page.getByLabel('Search').fill(`name:${name}`);
  const row = table.getByRole('row', { name: new RegExp(name) });
  // The search has applied (other tests' devices may fill the page until then).
  await expect(table.locator('tbody tr.data-row')).toHaveCount(1);
  await visible(row);
  await assertNoSidewaysScroll(table);
  const edit = row.getByRole('button', { name: `Edit ${name}` });
  await assertInViewAndOnTop(page, edit, 'Edit of the long-named device');
  await edit.click();
  const dialog = page.getByRole('dialog', { name: `Edit ${name}` });
  await visible(dialog);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'detached' });
  await shot('devices-1280');

  // Right to left the actions sit at the left edge, and are as reachable.
  await page.getByRole('button', { name: 'Language' }).click();
  await page.getByRole('menuitem', { name: 'العربية' }).click();
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  await visible(row);
  await assertNoSidewaysScroll(table);
  const actions = row.locator('td').last().getByRole('button');
  assert.equal(await actions.count(), 4);
  for (let index = 0; index < 4; index += 1) {
    await assertInViewAndOnTop(page, actions.nth(index), `rtl action ${index + 1}`);
  }
  const rowBox = await row.boundingBox();
  const lastBox = await row.locator('td').last().boundingBox();
  if (!rowBox || !lastBox) throw new Error('the row is not shown');
  assert.ok(lastBox.x < rowBox.x + rowBox.width / 2, 'rtl: the actions are at the left');
  await shot('devices-1280-ar');
});

test('devices: a Viewer sees the fleet but no write actions', async ({ page, api, baseUrl }) => {
  const token = await api.token(ADMIN.email, ADMIN.password);
  const name = `viewed-${Date.now().toString(36)}`;
  await apiCall(baseUrl, token, 'POST', 'devices/', { name, password: 'viewer-device-pw-1' });
  const email = uniqueEmail('viewer');
  await api.createUser(token, { email, password: 'Viewer12!', role: 'Viewer' });
  await signIn(page, { email, password: 'Viewer12!' });
  await visible(page.getByRole('row', { name: new RegExp(name) }));
  assert.equal(await page.getByRole('button', { name: 'New device' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: `Delete ${name}` }).count(), 0);
  assert.equal(await page.getByRole('button', { name: `Flush ${name}` }).count(), 0);
  assert.equal(await page.getByRole('button', { name: `Enrol ${name}` }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Upgrade all outdated' }).count(), 0);
  await page.goto('/firewall');
  await visible(page.getByRole('table', { name: 'Firewall rulesets' }));
  assert.equal(await page.getByRole('button', { name: 'New ruleset' }).count(), 0);
  await page.goto('/firewall?tab=profiles');
  await visible(page.getByRole('table', { name: 'Profiles' }));
  assert.equal(await page.getByRole('button', { name: 'New profile' }).count(), 0);
});
