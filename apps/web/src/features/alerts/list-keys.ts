/** What a key does on the alerts list (EveBox's keys): null for a key it leaves alone. */
export type ListKeyAction = 'next' | 'previous' | 'open' | 'acknowledge' | 'search';

const ACTIONS: Record<string, ListKeyAction> = {
  j: 'next',
  k: 'previous',
  Enter: 'open',
  e: 'acknowledge',
  '/': 'search',
};

export const listKeyAction = (key: string): ListKeyAction | null => ACTIONS[key] ?? null;

/**
 * The key belongs to something else: typing in a field, a menu or button that takes Enter, or
 * a shortcut of the browser (with Ctrl, Alt or Meta).
 */
export function isTyping(event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.altKey || event.metaKey) return true;
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)) return true;
  // A menu or dialog over the list has the keys.
  if (target.closest('[role="menu"], [role="dialog"], [role="listbox"]') !== null) return true;
  // Enter on a focused button or link is that control's own.
  return (
    event.key === 'Enter' &&
    target.closest('button, a, [role="button"], [role="option"], [role="menuitem"]') !== null
  );
}
