import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import ViewColumnIcon from '@mui/icons-material/ViewColumn';
import { isShown, type ColumnChoice } from './column-choice';
import type { DataColumn } from './types';

/** The table's Columns button: a menu that shows or hides each optional column. */
export function ColumnsMenu<T>({
  columns,
  choice,
  onChoose,
}: {
  columns: DataColumn<T>[];
  choice: ColumnChoice;
  onChoose: (id: string, on: boolean) => void;
}) {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const menuId = useId();
  const optional = columns.filter((c) => c.optional !== undefined);
  if (optional.length === 0) return null;
  return (
    <>
      <Tooltip title={t('table.columns')}>
        <IconButton
          aria-label={t('table.columns')}
          aria-haspopup="menu"
          aria-controls={anchor === null ? undefined : menuId}
          aria-expanded={anchor !== null}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <ViewColumnIcon />
        </IconButton>
      </Tooltip>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {optional.map((column) => {
          const on = isShown(column, choice);
          return (
            <MenuItem
              key={column.id}
              role="menuitemcheckbox"
              aria-checked={on}
              onClick={() => onChoose(column.id, !on)}
            >
              <ListItemIcon>
                <Checkbox edge="start" size="small" checked={on} tabIndex={-1} disableRipple />
              </ListItemIcon>
              <ListItemText>{column.header}</ListItemText>
            </MenuItem>
          );
        })}
      </Menu>
    </>
  );
}
