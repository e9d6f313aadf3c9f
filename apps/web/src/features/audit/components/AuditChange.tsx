import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { AuditRecord } from '@palisade/contract';
import { fieldDiffs, type DiffLine } from './audit-diff';

const LINE = {
  removed: { sign: '−', bg: 'rgba(248, 81, 73, 0.12)' },
  added: { sign: '+', bg: 'rgba(46, 160, 67, 0.14)' },
  same: { sign: ' ', bg: 'transparent' },
} as const;

function Line({ line }: { line: DiffLine }) {
  const style = LINE[line.kind];
  return (
    <Box
      component="div"
      data-kind={line.kind}
      sx={{ bgcolor: style.bg, px: 1, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
    >
      <Box component="span" aria-hidden sx={{ userSelect: 'none', pe: 1, opacity: 0.7 }}>
        {style.sign}
      </Box>
      {line.kind === 'removed' ? <del style={{ textDecoration: 'none' }}>{line.text}</del> : null}
      {line.kind === 'added' ? <ins style={{ textDecoration: 'none' }}>{line.text}</ins> : null}
      {line.kind === 'same' ? line.text : null}
    </Box>
  );
}

/** What a record says changed: per field, the old lines over the new ones. */
export function AuditChange({ record }: { record: AuditRecord }) {
  const { t } = useTranslation();
  const diffs = useMemo(() => fieldDiffs(record.before, record.after), [record]);
  return (
    <Box data-testid="audit-change" sx={{ py: 1 }}>
      {diffs.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {t('audit.change.none')}
        </Typography>
      ) : (
        diffs.map((diff) => (
          <Box key={diff.field} sx={{ mb: 1 }}>
            <Typography variant="subtitle2" component="h3" dir="ltr" sx={{ textAlign: 'start' }}>
              {diff.field}
            </Typography>
            <Box
              component="pre"
              dir="ltr"
              tabIndex={0}
              sx={{
                m: 0,
                fontSize: 12,
                border: 1,
                borderColor: 'divider',
                borderRadius: 1,
                overflow: 'auto',
                maxHeight: 320,
                textAlign: 'start',
              }}
            >
              {diff.lines.map((line, index) => (
                <Line key={index} line={line} />
              ))}
            </Box>
          </Box>
        ))
      )}
      {record.request_id ? (
        <Typography variant="caption" color="text.secondary">
          {t('audit.change.request', { id: record.request_id })}
        </Typography>
      ) : null}
    </Box>
  );
}
