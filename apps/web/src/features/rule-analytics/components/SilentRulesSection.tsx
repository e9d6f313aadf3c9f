import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { silentRulesQueryOptions } from '../api/rule-analytics';

const PAGE_SIZE = 25;

/** The enabled rules of a policy that raised no alert on any of its devices in the window. */
export function SilentRulesSection({
  days,
  policies,
}: {
  days: number;
  policies: { id: number; name: string }[];
}) {
  const { t, i18n } = useTranslation();
  const [chosen, setChosen] = useState<number | null>(null);
  const [page, setPage] = useState(0);
  const policyId = chosen ?? policies[0]?.id ?? null;
  const silent = useQuery({
    ...silentRulesQueryOptions(policyId ?? 0, days, {
      limit: PAGE_SIZE,
      offset: page * PAGE_SIZE,
    }),
    enabled: policyId !== null,
  });
  const data = silent.data;
  const number = (n: number) => n.toLocaleString(i18n.language);
  const error = silent.isError ? apiErrorMessage(silent.error) : null;
  if (policyId === null)
    return <Typography color="text.secondary">{t('ruleAnalytics.noPolicies')}</Typography>;
  return (
    <Box sx={{ display: 'grid', gap: 1 }}>
      <TextField
        select
        size="small"
        label={t('ruleAnalytics.policy')}
        value={policyId}
        onChange={(event) => {
          setChosen(Number(event.target.value));
          setPage(0);
        }}
        sx={{ maxWidth: 320 }}
      >
        {policies.map((policy) => (
          <MenuItem key={policy.id} value={policy.id}>
            {policy.name}
          </MenuItem>
        ))}
      </TextField>
      {silent.isFetching && <LinearProgress aria-label={t('ruleAnalytics.loading')} />}
      {error !== null && <Alert severity="error">{errorText(error, t)}</Alert>}
      {data && (
        <Typography variant="body2" data-testid="silent-summary">
          {data.devices === 0
            ? t('ruleAnalytics.silentNoDevices')
            : t('ruleAnalytics.silentSummary', {
                silent: number(data.recordsTotal),
                enabled: number(data.enabled),
                devices: number(data.devices),
              })}
        </Typography>
      )}
      {/* On no device, every rule is silent: the list would say nothing about the rules. */}
      {data && data.devices > 0 && data.recordsTotal > 0 && (
        <>
          <Table size="small" aria-label={t('ruleAnalytics.silent')} data-testid="silent-rules">
            <TableHead>
              <TableRow>
                <TableCell>{t('ruleAnalytics.rule')}</TableCell>
                <TableCell>{t('ruleAnalytics.message')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.data.map((rule) => (
                <TableRow key={`${rule.gid}:${rule.sid}`}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{`${rule.gid}:${rule.sid}`}</TableCell>
                  <TableCell>{rule.msg ?? t('ruleAnalytics.noMessage')}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
          <TablePagination
            component="div"
            count={data.recordsTotal}
            page={page}
            rowsPerPage={PAGE_SIZE}
            rowsPerPageOptions={[PAGE_SIZE]}
            onPageChange={(_event, next) => setPage(next)}
          />
        </>
      )}
    </Box>
  );
}
