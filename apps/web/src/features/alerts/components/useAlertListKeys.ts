import { useLayoutEffect } from 'react';
import type { Alert } from '@palisade/contract';
import { isTyping, listKeyAction } from '../list-keys';

interface AlertListKeysOptions {
  /** Off while a drawer or dialog is over the list. */
  keyboard: boolean;
  rows: Alert[];
  activeIndex: number;
  setActiveId: (id: number) => void;
  onOpen: (alert: Alert) => void;
  canWrite: boolean;
  acknowledgeOne: (alert: Alert) => Promise<void>;
}

/** The list's keys: j/k move, Enter opens, e acknowledges, / goes to the signature search. */
export function useAlertListKeys(options: AlertListKeysOptions): void {
  const { keyboard, rows, activeIndex, setActiveId, onOpen, canWrite, acknowledgeOne } = options;
  // A layout effect: the keys act on the rows on screen as soon as they are painted, not after
  // a passive effect catches up (a j pressed then moved nothing).
  useLayoutEffect(() => {
    if (!keyboard) return undefined;
    const onKey = (event: KeyboardEvent) => {
      if (isTyping(event)) return;
      const action = listKeyAction(event.key);
      if (action === null) return;
      event.preventDefault();
      const current = rows[activeIndex];
      switch (action) {
        case 'next':
        case 'previous': {
          const step = action === 'next' ? 1 : -1;
          const index = Math.min(rows.length - 1, Math.max(0, activeIndex + step));
          const next = rows[activeIndex === -1 ? 0 : index];
          if (next) setActiveId(next.id);
          break;
        }
        case 'open':
          if (current) onOpen(current);
          break;
        case 'acknowledge':
          if (current && canWrite && !current.acknowledged) void acknowledgeOne(current);
          break;
        case 'search':
          document.querySelector<HTMLInputElement>('input[name="signature"]')?.focus();
          break;
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [keyboard, rows, activeIndex, setActiveId, onOpen, canWrite, acknowledgeOne]);
}
