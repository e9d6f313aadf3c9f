/** The element app/prepaint paints a signed-in page load's frame in, before React runs. */
export const PREPAINT_FRAME_ID = 'prepaint';

/**
 * Takes the pre-painted frame down, if it is up: a screen has rendered over it (PageShell), or
 * there is no signed-in screen to wait for (signed out, a screen failed).
 */
export function endPrepaint(): void {
  if (typeof document === 'undefined') return;
  document.getElementById(PREPAINT_FRAME_ID)?.remove();
}
