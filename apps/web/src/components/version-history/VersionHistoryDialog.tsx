import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { apiErrorMessage, errorText } from '../../lib/errors';
import { formatDateTime } from '../../lib/format-date';
import { versionsQueryOptions } from './api';
import { useReviewedRollback } from './useReviewedRollback';
import { VersionDiffView } from './VersionDiffView';

export interface VersionHistoryProps {
  open: boolean;
  /** The object's name, for the title. */
  name: string;
  /** Its API path without the leading slash: `policies/7`, `devices/5/network`, … */
  base: string;
  canRollBack: boolean;
  /** Rulesets: an Administrator may roll back anyway when the lock-out check refuses. */
  canOverrideLockout?: boolean;
  /** The owning feature's queries that a rollback changes. */
  invalidate: readonly (readonly unknown[])[];
  /** After a rollback, once the invalidated queries were read again (an open form reloads). */
  onRolledBack?: () => void;
  onClose: () => void;
}

/**
 * An object's versions (when, who, counts), two of them compared, and "Roll back to this
 * version" after the review of what each device it reaches would receive, as a save has. Shared by the policy, ruleset,
 * profile and device network editors: only the path differs.
 */
export function VersionHistoryDialog(props: VersionHistoryProps) {
  const { t } = useTranslation();
  return (
    <Dialog open={props.open} onClose={props.onClose} maxWidth="lg" fullWidth>
      <DialogTitle>{t('versions.title', { name: props.name })}</DialogTitle>
      {props.open && <History {...props} />}
    </Dialog>
  );
}

function History({
  base,
  canRollBack,
  canOverrideLockout = false,
  invalidate,
  onRolledBack,
  onClose,
}: VersionHistoryProps) {
  const { t, i18n } = useTranslation();
  const list = useQuery(versionsQueryOptions(base));
  // null: the newest two, until the user picks others.
  const [pickedByUser, setPicked] = useState<number[] | null>(null);
  const versions = list.data?.data ?? [];
  const newest = versions[0]?.version;
  const picked = pickedByUser ?? versions.slice(0, 2).map((v) => v.version);
  const toggle = (version: number) =>
    setPicked(
      picked.includes(version)
        ? picked.filter((v) => v !== version)
        : [...picked, version].slice(-2),
    );
  const [a, b] = [...picked].sort((x, y) => x - y);
  const error = list.isError ? apiErrorMessage(list.error) : null;
  const reviewed = useReviewedRollback({
    base,
    invalidate,
    newest,
    canOverrideLockout,
    onRolledBack: () => {
      setPicked(null);
      onRolledBack?.();
    },
  });

  return (
    <>
      <DialogContent>
        {list.isPending && <LinearProgress aria-label={t('common.loading')} />}
        {error !== null && <Alert severity="error">{errorText(error, t)}</Alert>}
        {list.data !== undefined && (
          <Stack spacing={3}>
            <Table size="small" aria-label={t('versions.list')}>
              <TableHead>
                <TableRow>
                  <TableCell padding="checkbox">{t('versions.compare')}</TableCell>
                  <TableCell>{t('versions.version')}</TableCell>
                  <TableCell>{t('versions.when')}</TableCell>
                  <TableCell>{t('versions.who')}</TableCell>
                  <TableCell>{t('versions.counts')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {versions.map((entry) => (
                  <TableRow key={entry.version} data-testid={`version-row-${entry.version}`}>
                    <TableCell padding="checkbox">
                      <Checkbox
                        checked={picked.includes(entry.version)}
                        onChange={() => toggle(entry.version)}
                        slotProps={{
                          input: {
                            'aria-label': t('versions.pick', { version: entry.version }),
                          },
                        }}
                      />
                    </TableCell>
                    <TableCell>
                      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                        <span>{entry.version}</span>
                        {entry.current && <Chip size="small" label={t('versions.current')} />}
                        {entry.cause === 'rollback' && (
                          <Chip
                            size="small"
                            variant="outlined"
                            label={t('versions.restoredFrom', {
                              version: entry.restored_from ?? 0,
                            })}
                          />
                        )}
                      </Stack>
                    </TableCell>
                    <TableCell>{formatDateTime(entry.created_at, i18n.language)}</TableCell>
                    <TableCell>
                      <bdi>{entry.actor_name}</bdi>
                    </TableCell>
                    <TableCell>{summaryText(entry.summary, t)}</TableCell>
                    <TableCell align="right">
                      {canRollBack && entry.version !== newest && (
                        <Button
                          size="small"
                          disabled={reviewed.busy}
                          onClick={() => void reviewed.start(entry)}
                        >
                          {t('versions.rollBack')}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
            {a !== undefined && b !== undefined ? (
              <VersionDiffView base={base} a={a} b={b} />
            ) : (
              <Alert severity="info">{t('versions.pickTwo')}</Alert>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
      {reviewed.dialogs}
    </>
  );
}

const SUMMARY_KEYS = {
  rule_count: 'versions.summary.rules',
  variable_count: 'versions.summary.variables',
  route_count: 'versions.summary.routes',
  nat_count: 'versions.summary.nat',
} as const;

function summaryText(
  summary: Record<string, number>,
  t: (key: (typeof SUMMARY_KEYS)[keyof typeof SUMMARY_KEYS], options: { n: number }) => string,
) {
  return Object.entries(summary)
    .flatMap(([name, n]) =>
      name in SUMMARY_KEYS ? [t(SUMMARY_KEYS[name as keyof typeof SUMMARY_KEYS], { n })] : [],
    )
    .join(', ');
}
