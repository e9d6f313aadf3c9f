// The version history of any editor (issue 18, item 2): its "Versions of …" dialog, two
// versions compared, one rolled back. Used by versions.spec.mjs for every kind of object.
import { assert, visible, waitForNotice } from './ui.mjs';

/** The history dialog of `name`, its table of versions and the comparison below it. */
export function versionHistory(page, name) {
  const dialog = page.getByRole('dialog', { name: `Versions of ${name}` });
  const table = dialog.getByRole('table', { name: 'Versions' });
  return {
    page,
    dialog,
    table,
    diff: dialog.getByTestId('version-diff'),
    /** The row of one version, found by its Compare checkbox. */
    row: (version) =>
      table.getByRole('row').filter({
        has: page.getByRole('checkbox', { name: `Compare version ${version}`, exact: true }),
      }),
  };
}

/** Waits for `count` versions, the newest marked current (and as restoring one, when given). */
export async function expectVersions(history, count, { restores } = {}) {
  const newest = history.row(count);
  await visible(newest);
  assert.equal(await history.table.getByRole('row').count(), count + 1, 'a header and versions');
  await visible(newest.getByText('current', { exact: true }));
  if (restores !== undefined) await visible(newest.getByText(`restores ${restores}`));
}

/** Picks versions `a` and `b` (a < b) to compare; resolves once the comparison says so. */
export async function compareVersions(history, a, b) {
  const boxes = history.table.getByRole('checkbox', { name: /^Compare version \d+$/ });
  await visible(boxes);
  for (const box of await boxes.all()) {
    const version = Number((await box.getAttribute('aria-label')).replace(/\D+/g, ''));
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
export async function rollBack(history, { version, next, devices }) {
  const { page } = history;
  await history.row(version).getByRole('button', { name: 'Roll back to this version' }).click();
  const confirm = page.getByRole('dialog', { name: `Roll back to version ${version}?` });
  await visible(confirm);
  assert.match(
    await confirm.textContent(),
    new RegExp(`become version ${next}.*Devices this change reaches: ${devices}`),
  );
  await confirm.getByRole('button', { name: 'Roll back to this version' }).click();
  // Notices show one at a time for 5 s each: this one may queue behind the edits' own.
  await waitForNotice(page, `Version ${version} restored as version ${next}`, 20_000);
}
