import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import KeyboardArrowDownIcon from '@mui/icons-material/KeyboardArrowDown';
import KeyboardArrowUpIcon from '@mui/icons-material/KeyboardArrowUp';
import type { RuleChange, RuleChangeKind } from '@palisade/contract';
import { KIND_LABELS } from './labels';
import { RuleDiff } from './RuleDiff';

const KIND_COLORS: Record<RuleChangeKind, 'success' | 'error' | 'warning' | 'info' | 'default'> = {
  added: 'success',
  removed: 'error',
  changed: 'warning',
  enabled: 'info',
  disabled: 'default',
};

const rev = (value: number | null) => (value === null ? '—' : value);

/** One line of the changelog; opening it shows the rule's text diff. */
export function ChangeRow({
  change,
  initiallyOpen,
}: {
  change: RuleChange;
  initiallyOpen: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(initiallyOpen);
  const label = t('ruleSources.changelog.diffOf', { sid: change.sid });
  return (
    <>
      <TableRow
        hover
        data-testid="rule-change"
        sx={{ '& > td': { borderBottom: open ? 0 : undefined } }}
      >
        <TableCell padding="checkbox">
          <IconButton
            size="small"
            aria-label={label}
            aria-expanded={open}
            onClick={() => setOpen(!open)}
          >
            {open ? (
              <KeyboardArrowUpIcon fontSize="small" />
            ) : (
              <KeyboardArrowDownIcon fontSize="small" />
            )}
          </IconButton>
        </TableCell>
        <TableCell>
          <Chip size="small" color={KIND_COLORS[change.kind]} label={t(KIND_LABELS[change.kind])} />
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          {change.gid}:{change.sid}
        </TableCell>
        <TableCell sx={{ whiteSpace: 'nowrap' }}>
          {change.kind === 'changed'
            ? `${rev(change.old_rev)} → ${rev(change.new_rev)}`
            : rev(change.new_rev ?? change.old_rev)}
        </TableCell>
        <TableCell>{change.msg}</TableCell>
        <TableCell sx={{ color: 'text.secondary' }} dir="ltr">
          {change.file}
        </TableCell>
      </TableRow>
      <TableRow>
        <TableCell colSpan={6} sx={{ py: 0 }}>
          <Collapse in={open} unmountOnExit>
            <Box sx={{ py: 1.5 }}>
              <RuleDiff oldText={change.old_text} newText={change.new_text} />
            </Box>
          </Collapse>
        </TableCell>
      </TableRow>
    </>
  );
}
