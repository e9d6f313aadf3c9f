// The version history of any editor (issue 18, item 2): its "Versions of …" dialog, two
// versions compared, one rolled back. Used by versions.spec.ts for every kind of object.
import type { Page } from '@playwright/test';
import { assert, visible, waitForNotice } from './ui.ts';

/** The history dialog of `name`, its table of versions and the comparison below it. */
export function versionHistory(page: Page, name: string) {
  const dialog = page.getByRole('dialog', { name: `Versions of ${name}` });
  const table = dialog.getByRole('table', { name: 'Versions' });
  return {
    page,
    dialog,
    table,
    diff: dialog.getByTestId('version-diff'),
    /** The row of one version, found by its Compare checkbox. */
    row: (version: number) =>
      table.getByRole('row').filter({
        has: page.getByRole('checkbox', { name: `Compare version ${version}`, exact: true }),
      }),
  };
}

/** Waits for `count` versions, the newest marked current (and as restoring one, when given). */
/** The history dialog's parts (versionHistory). */
export type VersionHistory = ReturnType<typeof versionHistory>;

export async function expectVersions(
  history: VersionHistory,
  count: number,
  { restores }: { restores?: number | string } = {},
) {
  const newest = history.row(count);
  await visible(newest);
  assert.equal(await history.table.getByRole('row').count(), count + 1, 'a header and versions');
  await visible(newest.getByText('current', { exact: true }));
  if (restores !== undefined) await visible(newest.getByText(`restores ${restores}`));
}

/** Picks versions `a` and `b` (a < b) to compare; resolves once the comparison says so. */
export async function compareVersions(history: VersionHistory, a: number, b: number) {
  const boxes = history.table.getByRole('checkbox', { name: /^Compare version \d+$/ });
  await visible(boxes);
  for (const box of await boxes.all()) {
    const version = Number(((await box.getAttribute('aria-label')) ?? '').replace(/\D+/g, ''));
    if (version !== a && version !== b && (await box.isChecked())) await box.uncheck();
  }
  for (const version of [a, b]) {
    await history.table
      .getByRole('checkbox', { name: `Compare version ${version}`, exact: true })
      .check();
  }
  await visible(history.diff.getByText(`Changes from version ${a} to version ${b}`));
}

/**
 * Rolls back to `version` through its confirmation, which names the new version and the
 * devices the change reaches; resolves once the notice says it was restored as `next`.
 */
export async function rollBack(
  history: VersionHistory,
  { version, next, devices }: { version: number; next: number; devices: number | string },
) {
  const { page } = history;
  await history.row(version).getByRole('button', { name: 'Roll back to this version' }).click();
  const confirm = page.getByRole('dialog', { name: `Roll back to version ${version}?` });
  await visible(confirm);
  assert.match(
    (await confirm.textContent()) ?? '',
    new RegExp(`become version ${next}.*Devices this change reaches: ${devices}`),
  );
  await confirm.getByRole('button', { name: 'Roll back to this version' }).click();
  // Notices show one at a time for 5 s each: this one may queue behind the edits' own.
  await waitForNotice(page, `Version ${version} restored as version ${next}`, 20_000);
}

export const RULES = [
  'alert tcp any any -> $HOME_NET 22 (msg:"E2E history ssh"; sid:7810001; rev:1;)',
  'alert tcp any any -> $HOME_NET 23 (msg:"E2E history telnet"; sid:7810002; rev:1;)',
  'alert udp any any -> any 53 (msg:"E2E history dns"; sid:7810003; rev:1;)',
  '',
].join('\n');

/**
 * Arranges state through the API (never to check the UI): a rules file (`rules`, one rule a
 * line) and a policy on the group it makes.
 */
export async function arrangePolicy(baseUrl: string, token: string, name: string, rules = RULES) {
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
  const file = `history-${Date.now().toString(36)}.rules`;
  form.append('file', new Blob([rules]), file);
  const report = await call('rules/import', { method: 'POST', body: form });
  const groups = await call('groups/?limit=999999&offset=0');
  const group = groups.data.find((g: { name: string }) => g.name === report.files[0].group);
  return call('policies/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, group_ids: [group.id] }),
  });
}
