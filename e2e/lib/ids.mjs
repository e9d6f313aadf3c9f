/* global document, getComputedStyle -- used in code that runs in the page */
// Helpers of the rules and policies browser tests (issue 4).
import path from 'node:path';
import { ROOT } from './env.mjs';
import { assert, visible } from './ui.mjs';

/** The shared corpus, read at test time (never copied into the repository). */
export const CORPUS = path.resolve(ROOT, '../shared/corpus');

/** A screenshot once open dialogs have finished fading in. */
export async function snap(page, shot, name) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.MuiDialog-container')].every(
      (el) => getComputedStyle(el).opacity === '1',
    ),
  );
  await shot(name);
}

/** Uploads a rules file through the console's dialog; resolves with the dialog showing its report. */
export async function uploadRules(page, file) {
  await page.goto('/policies?tab=rules');
  await page.getByRole('button', { name: 'Upload rules' }).click();
  const dialog = page.getByRole('dialog', { name: 'Upload custom rules or rulesets' });
  await dialog.getByTestId('rules-file-input').setInputFiles(file);
  await visible(dialog.getByText(path.basename(file)));
  const progressShown = page
    .getByRole('progressbar', { name: 'Upload progress' })
    .waitFor({ state: 'attached', timeout: 10_000 })
    .then(() => true);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  await visible(dialog.getByTestId('import-report'), 40_000);
  assert.ok(await progressShown, 'the upload progress bar was shown');
  return dialog;
}
