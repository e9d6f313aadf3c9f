import { useState, type MouseEvent } from 'react';
import { useListT } from '../../../lib/i18n';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import type { PivotField } from '../filters';

/** Filters on a value (exclude: leaves it out). */
export type OnPivot = (field: PivotField, value: string, exclude: boolean) => void;

interface PivotValueProps {
  field: PivotField;
  /** What the filter takes (a device's id, a port as digits). */
  value: string;
  /** What is shown, when it differs from the value (a device's name). */
  label?: string;
  onPivot: OnPivot;
}

/**
 * A value that filters with one click: a click shows only alerts with it, Shift+click (or
 * Alt+click) leaves them out; the context menu (right click, or the menu key) offers both.
 * Its full text is its title, for a cell that cuts it short.
 *
 * Its texts come from useListT: a list of alerts holds seven of these a row.
 */
export function PivotValue({ field, value, label, onPivot }: PivotValueProps) {
  const t = useListT();
  const shown = label ?? value;
  const [menu, setMenu] = useState<HTMLElement | null>(null);
  const click = (event: MouseEvent) => {
    // The row under it would take the click as a selection.
    event.stopPropagation();
    onPivot(field, value, event.shiftKey || event.altKey);
  };
  const choose = (exclude: boolean) => {
    setMenu(null);
    onPivot(field, value, exclude);
  };
  return (
    <>
      {/* A plain button styled once by the theme (`button.pivot`, mui-theme.ts): an `sx` here
          was serialised again for each of a list's hundreds. Its hint is written when the pointer
          or focus comes, not for every value drawn. */}
      <button
        type="button"
        className="pivot"
        data-pivot={field}
        onPointerEnter={(event) => {
          event.currentTarget.title = t('alerts.pivot.hint', { value: shown });
        }}
        onFocus={(event) => {
          event.currentTarget.title = t('alerts.pivot.hint', { value: shown });
        }}
        onClick={click}
        onContextMenu={(event: MouseEvent<HTMLElement>) => {
          event.preventDefault();
          event.stopPropagation();
          setMenu(event.currentTarget);
        }}
      >
        {shown}
      </button>
      {menu !== null && (
        <Menu
          open
          anchorEl={menu}
          onClose={() => setMenu(null)}
          onClick={(e) => e.stopPropagation()}
        >
          <MenuItem onClick={() => choose(false)}>
            {t('alerts.pivot.filter', { value: shown })}
          </MenuItem>
          <MenuItem onClick={() => choose(true)}>
            {t('alerts.pivot.exclude', { value: shown })}
          </MenuItem>
        </Menu>
      )}
    </>
  );
}

/** "address:port" (or "[v6]:port") with each part its own pivot. */
export function EndpointPivots({
  side,
  ip,
  port,
  onPivot,
}: {
  side: 'src' | 'dest';
  ip: string | null;
  port: number | null;
  onPivot: OnPivot;
}) {
  if (ip === null) return <>–</>;
  const v6 = ip.includes(':');
  return (
    <span dir="ltr" title={port === null ? ip : `${ip}:${port}`}>
      {v6 && port !== null && '['}
      <PivotValue field={`${side}_ip`} value={ip} onPivot={onPivot} />
      {port !== null && (
        <>
          {v6 ? ']:' : ':'}
          <PivotValue field={`${side}_port`} value={String(port)} onPivot={onPivot} />
        </>
      )}
    </span>
  );
}
