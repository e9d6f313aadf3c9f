/* global document, getComputedStyle -- used in code that runs in the page */
// Helpers of the rules and policies browser tests (issue 4).
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CORPUS_ROOT, corpusPresent } from '../../testing/corpus.mjs';
import { sampleRuleFiles } from '../../testing/samples.mjs';
import type { Page } from '@playwright/test';
import { assert, visible } from './ui.ts';

/** The shared corpus (PALISADE_CORPUS), read at test time (never copied into the repository). */
export const CORPUS = CORPUS_ROOT;

/**
 * One of Suricata's rule files (`dns-events.rules`, `smtp-events.rules`) to upload: the corpus's,
 * or without the corpus the project's sample file of that name, written to a temporary folder.
 */
export async function suricataRulesFile(name: string) {
  if (corpusPresent(`rules/suricata/${name}`)) return path.join(CORPUS, 'rules/suricata', name);
  const sample = sampleRuleFiles().find((file) => file.name === name);
  if (sample === undefined) throw new Error(`no sample rules file ${name}`);
  const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'palisade-e2e-rules-')), name);
  await writeFile(file, sample.text);
  return file;
}

/** A screenshot once open dialogs have finished fading in. */
export async function snap(page: Page, shot: (name: string) => Promise<unknown>, name: string) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.MuiDialog-container')].every(
      (el) => getComputedStyle(el).opacity === '1',
    ),
  );
  await shot(name);
}

/** Uploads a rules file through the console's dialog; resolves with the dialog showing its report. */
export async function uploadRules(page: Page, file: string) {
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
