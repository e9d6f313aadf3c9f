import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { Threshold } from '@palisade/contract';
import { ExpiresChip } from '../../../components/expiry/ExpiresChip';
import { ThresholdDialog } from './ThresholdDialog';

interface ThresholdsEditorProps {
  thresholds: Threshold[];
  onChange: (next: Threshold[]) => void;
  readOnly: boolean;
  /** The saved policy, whose devices' alerts an entry is backtested on (none while new). */
  policyId?: number;
}

/** A threshold.config line as a sensor reads it, for the list. */
export function thresholdLine(x: Threshold): string {
  const parts = [`gen_id ${x.gid}`, `sig_id ${x.sid}`];
  if (x.type !== undefined) parts.push(`type ${x.type}`);
  if (x.track !== undefined) parts.push(`track ${x.track}`);
  if (x.count !== undefined) parts.push(`count ${x.count}`);
  if (x.seconds !== undefined) parts.push(`seconds ${x.seconds}`);
  if (x.new_action !== undefined) parts.push(`new_action ${x.new_action}`);
  if (x.timeout !== undefined) parts.push(`timeout ${x.timeout}`);
  if (x.ip !== undefined) parts.push(`ip ${x.ip}`);
  return `${x.kind} ${parts.join(', ')}`;
}

/** Thresholds and suppressions of a policy. */
export function ThresholdsEditor({
  thresholds,
  onChange,
  readOnly,
  policyId,
}: ThresholdsEditorProps) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const save = (threshold: Threshold) =>
    onChange(
      editing === 'new' || editing === null
        ? [...thresholds, threshold]
        : thresholds.map((x, i) => (i === editing ? threshold : x)),
    );
  return (
    <>
      {!readOnly && (
        <Button startIcon={<AddIcon />} onClick={() => setEditing('new')} sx={{ mb: 1 }}>
          {t('policies.thresholds.add')}
        </Button>
      )}
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label={t('policies.thresholds.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('policies.thresholds.entry')}</TableCell>
              <TableCell>{t('policies.thresholds.comment')}</TableCell>
              <TableCell sx={{ width: 100 }} />
            </TableRow>
          </TableHead>
          <TableBody>
            {thresholds.length === 0 && (
              <TableRow>
                <TableCell colSpan={3} sx={{ textAlign: 'center', color: 'text.secondary', py: 3 }}>
                  {t('policies.thresholds.empty')}
                </TableCell>
              </TableRow>
            )}
            {thresholds.map((x, index) => (
              <TableRow key={`${index}-${x.kind}-${x.sid}`}>
                <TableCell dir="ltr" sx={{ fontFamily: 'monospace', fontSize: 13 }}>
                  {thresholdLine(x)}
                </TableCell>
                <TableCell>
                  {x.comment ?? ''} <ExpiresChip expiresAt={x.expires_at} reason={x.reason} />
                </TableCell>
                <TableCell align="right">
                  {!readOnly && (
                    <>
                      <IconButton
                        size="small"
                        aria-label={t('policies.thresholds.edit')}
                        onClick={() => setEditing(index)}
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                      <IconButton
                        size="small"
                        aria-label={t('common.delete')}
                        onClick={() => onChange(thresholds.filter((_, i) => i !== index))}
                      >
                        <DeleteIcon fontSize="small" />
                      </IconButton>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <ThresholdDialog
        open={editing !== null}
        value={typeof editing === 'number' ? thresholds[editing] : undefined}
        policyId={policyId}
        onSave={save}
        onClose={() => setEditing(null)}
      />
    </>
  );
}
