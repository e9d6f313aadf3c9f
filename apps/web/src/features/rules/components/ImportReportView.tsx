import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { ImportReport } from '@palisade/contract';

/** Rejected lines shown at most; the count says how many there were. */
const MAX_REJECTED_SHOWN = 500;

/** What an import did: counts, files → groups, and every rejected line with where and why. */
export function ImportReportView({ report }: { report: ImportReport }) {
  const { t } = useTranslation();
  const counts = [
    { label: t('rules.import.added'), value: report.added, color: 'success' as const },
    { label: t('rules.import.updated'), value: report.updated, color: 'info' as const },
    { label: t('rules.import.unchanged'), value: report.unchanged, color: 'default' as const },
    { label: t('rules.import.removedCount'), value: report.removed, color: 'warning' as const },
    {
      label: t('rules.import.classifications'),
      value: report.classifications,
      color: 'default' as const,
    },
    { label: t('rules.import.rejected'), value: report.rejected.length, color: 'error' as const },
  ];
  return (
    <Stack spacing={2} sx={{ mt: 3 }} data-testid="import-report">
      <Alert severity={report.rejected.length === 0 ? 'success' : 'warning'}>
        {t('rules.import.done')}
      </Alert>
      <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
        {counts.map((count) => (
          <Chip
            key={count.label}
            color={count.color}
            variant={count.value === 0 ? 'outlined' : 'filled'}
            label={`${count.label}: ${count.value}`}
          />
        ))}
      </Stack>
      {report.files.length > 0 && (
        <TableContainer component={Paper} variant="outlined">
          <Table size="small" aria-label={t('rules.import.files')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('rules.import.file')}</TableCell>
                <TableCell>{t('rules.import.group')}</TableCell>
                <TableCell align="right">{t('rules.import.rules')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {report.files.map((file) => (
                <TableRow key={file.file}>
                  <TableCell dir="ltr">{file.file}</TableCell>
                  <TableCell>{file.group}</TableCell>
                  <TableCell align="right">{file.rules}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {report.rejected.length > 0 && (
        <>
          <Typography variant="subtitle2">{t('rules.import.rejectedLines')}</Typography>
          <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 280 }}>
            <Table size="small" stickyHeader aria-label={t('rules.import.rejectedLines')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('rules.import.file')}</TableCell>
                  <TableCell align="right">{t('rules.import.line')}</TableCell>
                  <TableCell align="right">{t('rules.import.column')}</TableCell>
                  <TableCell>{t('rules.import.reason')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {report.rejected.slice(0, MAX_REJECTED_SHOWN).map((line) => (
                  <TableRow key={`${line.file}:${line.line}:${line.column}`}>
                    <TableCell dir="ltr">{line.file}</TableCell>
                    <TableCell align="right">{line.line}</TableCell>
                    <TableCell align="right">{line.column}</TableCell>
                    <TableCell dir="ltr">{line.msg}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {report.rejected.length > MAX_REJECTED_SHOWN && (
            <Typography variant="body2" color="text.secondary">
              {t('rules.import.moreRejected', { n: report.rejected.length - MAX_REJECTED_SHOWN })}
            </Typography>
          )}
        </>
      )}
    </Stack>
  );
}
