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

/** Lines shown at most in each list; the count says how many there were. */
const MAX_LINES_SHOWN = 500;

type ReportLine = ImportReport['rejected'][number];

/** Lines of the uploaded files with where and why: rejected ones, or ones to check. */
function ReportLines({
  title,
  lines,
  total,
  more,
}: {
  title: string;
  lines: ReportLine[];
  total: number;
  more: (n: number) => string;
}) {
  const { t } = useTranslation();
  if (lines.length === 0) return null;
  const shown = lines.slice(0, MAX_LINES_SHOWN);
  return (
    <>
      <Typography variant="subtitle2">{title}</Typography>
      <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 280 }}>
        <Table size="small" stickyHeader aria-label={title}>
          <TableHead>
            <TableRow>
              <TableCell>{t('rules.import.file')}</TableCell>
              <TableCell align="right">{t('rules.import.line')}</TableCell>
              <TableCell align="right">{t('rules.import.column')}</TableCell>
              <TableCell>{t('rules.import.reason')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((line, index) => (
              <TableRow key={`${line.file}:${line.line}:${line.column}:${index}`}>
                <TableCell dir="ltr">{line.file}</TableCell>
                {/* Line 0: what is said is about the whole file (one without rules). */}
                <TableCell align="right">
                  {line.line === 0 ? t('rules.import.wholeFile') : line.line}
                </TableCell>
                <TableCell align="right">{line.line === 0 ? '' : line.column}</TableCell>
                <TableCell dir="ltr">{line.msg}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {total > shown.length && (
        <Typography variant="body2" color="text.secondary">
          {more(total - shown.length)}
        </Typography>
      )}
    </>
  );
}

/** What an import did: counts, files → groups, and the rejected lines and lines to check. */
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
    { label: t('rules.import.warnings'), value: report.warning_count, color: 'warning' as const },
  ];
  return (
    <Stack spacing={2} sx={{ mt: 3 }} data-testid="import-report">
      <Alert
        severity={
          report.rejected.length === 0 && report.warning_count === 0 ? 'success' : 'warning'
        }
      >
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
                  <TableCell dir="ltr">{file.group}</TableCell>
                  <TableCell align="right">{file.rules}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <ReportLines
        title={t('rules.import.rejectedLines')}
        lines={report.rejected}
        total={report.rejected.length}
        more={(n) => t('rules.import.moreRejected', { n })}
      />
      <ReportLines
        title={t('rules.import.warningLines')}
        lines={report.warnings}
        total={report.warning_count}
        more={(n) => t('rules.import.moreWarnings', { n })}
      />
    </Stack>
  );
}
