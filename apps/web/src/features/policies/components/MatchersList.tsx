import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import DeleteIcon from '@mui/icons-material/Delete';
import type { PolicyMatcher } from '@palisade/contract';

interface MatchersListProps {
  matchers: PolicyMatcher[];
  onChange: (next: PolicyMatcher[]) => void;
  readOnly: boolean;
}

/** suricata-update lines (enable/disable/drop/modify.conf) uploaded into the policy. */
export function MatchersList({ matchers, onChange, readOnly }: MatchersListProps) {
  const { t } = useTranslation();
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 360 }}>
      <Table size="small" stickyHeader aria-label={t('policies.matchers.title')}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 100 }}>{t('policies.matchers.file')}</TableCell>
            <TableCell>{t('policies.matchers.matcher')}</TableCell>
            <TableCell sx={{ width: 56 }} />
          </TableRow>
        </TableHead>
        <TableBody>
          {matchers.length === 0 && (
            <TableRow>
              <TableCell colSpan={3} sx={{ textAlign: 'center', color: 'text.secondary', py: 3 }}>
                {t('policies.matchers.empty')}
              </TableCell>
            </TableRow>
          )}
          {matchers.map((m, index) => (
            <TableRow key={`${index}-${m.kind}-${m.matcher}`}>
              <TableCell dir="ltr">{`${m.kind}.conf`}</TableCell>
              <TableCell dir="ltr" sx={{ fontFamily: 'monospace', fontSize: 13 }}>
                {m.kind === 'modify' ? `${m.matcher} "${m.from ?? ''}" "${m.to ?? ''}"` : m.matcher}
              </TableCell>
              <TableCell>
                {!readOnly && (
                  <IconButton
                    size="small"
                    aria-label={t('common.delete')}
                    onClick={() => onChange(matchers.filter((_, i) => i !== index))}
                  >
                    <DeleteIcon fontSize="small" />
                  </IconButton>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
