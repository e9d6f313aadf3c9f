import texts from 'virtual:prepaint-texts';
import { direction } from '../../lib/language';
import { mainState, pageStartLanguage } from '../../lib/main-state';
import { PREPAINT_FRAME_ID, endPrepaint } from '../../lib/prepaint-frame';
import { StorageKey, storage } from '../../lib/storage';
import type { PrepaintTextKey } from './keys';
import { prepaintShellFor } from './shell';

/** A frame still up after this long is taken down: the screen under it is what counts. */
const GIVE_UP_MS = 15_000;

/**
 * Paints, from the entry script and before React and the component kit are evaluated, the
 * frame of the screen a signed-in page load opens on: the top bar, the drawer's edge and, on
 * Devices, the heading and the search box with its help, in the stored language, where the
 * screen will draw them (prepaint.css copies the kit's geometry). It covers the page until the
 * screen's first render (`endPrepaint` of lib/prepaint-frame, from PageShell), so what React
 * draws before that (the layout with a spinner) never shows, and the swap moves nothing.
 * Returns whether it painted.
 */
export function prepaint(pathname: string): boolean {
  const shell = prepaintShellFor(pathname, storage.get(StorageKey.token) !== null);
  if (shell === null) return false;
  const language = pageStartLanguage();
  const text = (key: PrepaintTextKey) => texts[language][key];
  document.documentElement.lang = language;
  document.documentElement.dir = direction(language);

  const frame = element('div', 'pal-prepaint');
  frame.id = PREPAINT_FRAME_ID;
  // The screen React renders underneath is the one assistive technology should read.
  frame.setAttribute('aria-hidden', 'true');
  if (mainState.get().drawer === 'mini') frame.classList.add('pal-prepaint--mini');
  const bar = element('div', 'pal-prepaint__bar');
  bar.append(element('div', 'pal-prepaint__title', text('app.name')));
  const main = element('div', 'pal-prepaint__main');
  main.append(shell === 'devices' ? devicesScreen(text) : loadingScreen(text));
  frame.append(bar, element('div', 'pal-prepaint__drawer'), main);
  document.body.append(frame);
  setTimeout(endPrepaint, GIVE_UP_MS);
  return true;
}

type Text = (key: PrepaintTextKey) => string;

function devicesScreen(text: Text): HTMLElement {
  const page = element('div', 'pal-prepaint__page');
  const titleRow = element('div', 'pal-prepaint__title-row');
  titleRow.append(element('h1', 'pal-prepaint__heading', text('nav.devices')));
  const box = element('div', 'pal-prepaint__search-box');
  box.append(element('span', 'pal-prepaint__placeholder', text('table.search')));
  const field = element('div', 'pal-prepaint__field');
  field.append(box, element('p', 'pal-prepaint__hint', text('devices.searchHelp')));
  const area = element('div', 'pal-prepaint__search-area');
  area.append(field, element('p', 'pal-prepaint__help', text('table.searchHelp')));
  const search = element('div', 'pal-prepaint__search');
  search.append(area);
  page.append(titleRow, search);
  return page;
}

/** FullPageSpinner's markup (its styles are app/base.css). */
function loadingScreen(text: Text): HTMLElement {
  const spinner = element('div', 'pal-spinner');
  spinner.append(element('span', 'pal-spinner__ring'), element('span', '', text('common.loading')));
  return spinner;
}

function element(tag: string, className: string, textContent?: string): HTMLElement {
  const node = document.createElement(tag);
  if (className !== '') node.className = className;
  if (textContent !== undefined) node.textContent = textContent;
  return node;
}
