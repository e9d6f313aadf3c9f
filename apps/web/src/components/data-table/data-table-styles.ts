import { alpha, lighten, type SxProps, type Theme } from '@mui/material/styles';
import type { WidthStyles } from './column-widths';
import type { DataColumn } from './types';

const CELL_CLASS = {
  left: 'data-cell',
  right: 'data-cell data-cell-right',
  center: 'data-cell data-cell-center',
} as const;

/** Classes a column's header and body cells share: pinned, and its own for hiding it. */
export function columnClass<T>(column: DataColumn<T>): string {
  const pinned = column.pinned === 'end' ? ' data-cell-pinned' : '';
  const hideable = column.hideBelow === undefined ? '' : ` data-col-${column.id}`;
  return `${pinned}${hideable}`.trimStart();
}

export function cellClass<T>(column: DataColumn<T>): string {
  return `${CELL_CLASS[column.align ?? 'left']} ${columnClass(column)}`.trimEnd();
}

/** The row actions stay at the end edge; logical insets follow the writing direction. */
export const pinnedCell = (theme: Theme) => ({
  position: 'sticky' as const,
  insetInlineEnd: 0,
  borderInlineStart: `1px solid ${theme.palette.divider}`,
});

/**
 * What MUI's small body TableCell and hover TableRow look like, for the plain body rows; plus
 * the width rules (columns hidden on a narrow table, the flexible column's floor).
 */
export const tableStylesWith =
  (widths: WidthStyles, dense: boolean): SxProps<Theme> =>
  (theme) => ({
    ...widths,
    ...(dense && {
      tableLayout: 'fixed',
      '& thead th': {
        padding: '4px 8px',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      },
      // More specific than the cells' own rule below, which it narrows.
      '& tr.data-row td.data-cell': {
        padding: '0 8px',
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
      },
    }),
    '& tr.data-row-active': {
      backgroundColor: alpha(theme.palette.primary.main, 0.12),
      outline: `2px solid ${theme.palette.primary.main}`,
      outlineOffset: -2,
    },
    '& tr.data-row:hover': { backgroundColor: theme.palette.action.hover },
    '& td.data-cell': {
      ...theme.typography.body2,
      color: theme.palette.text.primary,
      padding: '6px 16px',
      textAlign: 'start',
      verticalAlign: 'middle',
      borderBottom: `1px solid ${
        theme.palette.mode === 'light'
          ? lighten(alpha(theme.palette.divider, 1), 0.88)
          : theme.palette.divider
      }`,
    },
    '& td.data-cell-right': { textAlign: 'end' },
    '& td.data-cell-center': { textAlign: 'center' },
    '& td.data-cell-pinned': {
      ...pinnedCell(theme),
      zIndex: 1,
      // Opaque, so the columns scrolling under it do not show through.
      backgroundColor: theme.palette.background.paper,
    },
    '& tr.data-row:hover td.data-cell-pinned': {
      backgroundImage: `linear-gradient(${theme.palette.action.hover}, ${theme.palette.action.hover})`,
    },
  });
