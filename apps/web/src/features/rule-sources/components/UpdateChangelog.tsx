import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import { RuleChangeKind, type RuleSourceUpdateDetail } from '@palisade/contract';
import { SearchField } from '../../../components/data-table/SearchField';
import { initialTableState } from '../../../components/data-table/list-params';
import { formatDateTime } from '../../../lib/format-date';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { sourceQueryOptions } from '../api/get-source';
import { updateQueryOptions } from '../api/get-update';
import { changesListQueryOptions } from '../api/list-changes';
import { ChangeRow } from './ChangeRow';
import { UpdateStatusChip } from './UpdateStatusChip';
import { SourceHeader } from './SourceHeader';
import { KIND_LABELS } from './labels';
import { historyPath } from './paths';

const PAGE_SIZES = [25, 50, 100];
const ALL = 'all';

const kindCount = (update: RuleSourceUpdateDetail | undefined, kind: RuleChangeKind) =>
  update?.[kind] ?? 0;

interface UpdateChangelogProps {
  sourceId: number;
  updateId: number;
  /** Shows only this rule's change, opened (from the alerts or policies screens). */
  sid: number | null;
}

/** An update's changelog: rules added, removed, changed, enabled and disabled, each with its diff. */
export function UpdateChangelog({ sourceId, updateId, sid }: UpdateChangelogProps) {
  const { t, i18n } = useTranslation();
  const [kind, setKind] = useState<RuleChangeKind | null>(null);
  const [state, setState] = useState(() => initialTableState(50));
  const source = useQuery(sourceQueryOptions(sourceId));
  const update = useQuery(updateQueryOptions(sourceId, updateId));
  const changes = useQuery(changesListQueryOptions(sourceId, updateId, { state, kind, sid }));
  const failure = [update, changes]
    .map((query) => errorText(query.isError ? apiErrorMessage(query.error) : null, t))
    .find((text) => text !== null);
  const detail = update.data;
  const rows = changes.data?.data ?? [];

  return (
    <>
      <SourceHeader
        source={source.data}
        current={t('ruleSources.changelog.crumb', { id: updateId })}
      />
      {failure !== undefined && <Alert severity="error">{failure}</Alert>}
      {detail !== undefined && (
        <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
          <UpdateStatusChip update={detail} />
          <Typography variant="body2">
            {formatDateTime(detail.finished_at ?? detail.created_at, i18n.language)}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {t('ruleSources.changelog.summary', {
              added: detail.added,
              removed: detail.removed,
              changed: detail.changed,
              policies: detail.policies_bumped,
            })}
          </Typography>
        </Box>
      )}
      {detail?.error != null && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {detail.error}
        </Alert>
      )}
      {detail !== undefined && detail.warnings.length > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          <Typography variant="subtitle2">
            {t('ruleSources.history.warnings', { n: detail.warning_count })}
          </Typography>
          <Box component="ul" sx={{ m: 0, ps: 2, maxHeight: 160, overflow: 'auto' }} dir="ltr">
            {detail.warnings.map((w, index) => (
              <li key={index}>
                {w.file}:{w.line} {w.msg}
              </li>
            ))}
          </Box>
        </Alert>
      )}
      {sid !== null && (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('ruleSources.changelog.onlyRule', { sid })}{' '}
          <Link component={RouterLink} to={`${historyPath(sourceId)}&update=${updateId}`}>
            {t('ruleSources.changelog.showAll')}
          </Link>
        </Alert>
      )}
      <ToggleButtonGroup
        size="small"
        exclusive
        value={kind ?? ALL}
        aria-label={t('ruleSources.changelog.kindFilter')}
        onChange={(_event, next: string | null) => {
          if (next === null) return;
          setKind(next === ALL ? null : RuleChangeKind.parse(next));
          setState({ ...state, pageIndex: 0 });
        }}
        sx={{ mb: 1, flexWrap: 'wrap' }}
      >
        <ToggleButton value={ALL}>{t('ruleSources.changelog.all')}</ToggleButton>
        {RuleChangeKind.options.map((option) => (
          <ToggleButton key={option} value={option}>
            {t(KIND_LABELS[option])} ({kindCount(detail, option)})
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <Paper variant="outlined">
        <SearchField
          value={state.search}
          onChange={(search) => setState({ ...state, search, pageIndex: 0 })}
          hint={t('ruleSources.changelog.searchHint')}
        />
        <Box sx={{ height: 4 }}>{changes.isFetching && <LinearProgress />}</Box>
        <TableContainer sx={{ maxHeight: 'calc(100vh - 360px)', minHeight: 160 }}>
          <Table size="small" stickyHeader aria-label={t('ruleSources.changelog.title')}>
            <TableHead>
              <TableRow>
                <TableCell padding="checkbox" />
                <TableCell sx={{ width: 110 }}>{t('ruleSources.changelog.kind')}</TableCell>
                <TableCell sx={{ width: 120 }}>{t('ruleSources.changelog.rule')}</TableCell>
                <TableCell sx={{ width: 90 }}>{t('ruleSources.changelog.rev')}</TableCell>
                <TableCell>{t('ruleSources.changelog.msg')}</TableCell>
                <TableCell>{t('ruleSources.changelog.file')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((change) => (
                <ChangeRow key={change.id} change={change} initiallyOpen={sid !== null} />
              ))}
              {rows.length === 0 && !changes.isFetching && (
                <TableRow>
                  <TableCell colSpan={6} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    {t('ruleSources.changelog.empty')}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={changes.data?.recordsTotal ?? 0}
          page={state.pageIndex}
          rowsPerPage={state.pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          labelRowsPerPage={t('table.rowsPerPage')}
          labelDisplayedRows={({ from, to, count }) =>
            t('table.displayedRows', { from, to, count })
          }
          onPageChange={(_event, pageIndex) => setState({ ...state, pageIndex })}
          onRowsPerPageChange={(event) =>
            setState({ ...state, pageSize: Number(event.target.value), pageIndex: 0 })
          }
        />
      </Paper>
    </>
  );
}
