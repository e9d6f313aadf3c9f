import './base.css';
import './prepaint/prepaint.css';
import { themeColours } from '../lib/theme';
import { endPrepaint } from '../lib/prepaint-frame';
import { prepaint } from './prepaint/prepaint';

// The entry script is this and the frame it paints; the console itself (React, the router, the
// component kit) is ./start, fetched at once (the build lists its scripts as modulepreload links
// in index.html) but evaluated only after that frame is on screen: run as part of the entry, it
// held the first paint of a signed-in page load for its whole evaluation.
void themeColours();
const painted = paintFrame();

/** The frame, if this page load gets one; a frame that fails to paint must not stop the console. */
function paintFrame(): boolean {
  try {
    return prepaint(window.location.pathname);
  } catch (error) {
    endPrepaint();
    console.error('the pre-painted frame failed', error);
    return false;
  }
}

function startConsole(): void {
  import('./start')
    .then(({ start }) => start())
    .catch((error: unknown) => {
      endPrepaint();
      console.error('the console could not start', error);
    });
}

if (painted && document.visibilityState === 'visible') {
  // requestAnimationFrame runs just before the frame is drawn; the timeout, after it.
  requestAnimationFrame(() => setTimeout(startConsole, 0));
} else {
  startConsole();
}
