import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { RuleSourceCatalogueEntry } from '@palisade/contract';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { SURICATA_VERSIONS, catalogueQueryOptions } from '../api/catalogue';

interface CatalogueDialogProps {
  open: boolean;
  /** The sources already added, by catalogue id: their entries say so. */
  added: ReadonlySet<string>;
  onPick: (entry: RuleSourceCatalogueEntry) => void;
  onClose: () => void;
}

/** The well-known free sources for a Suricata version; picking one opens it in the source form. */
export function CatalogueDialog({ open, added, onPick, onClose }: CatalogueDialogProps) {
  const { t } = useTranslation();
  const [version, setVersion] = useState<string>('7.0');
  const catalogue = useQuery({ ...catalogueQueryOptions(version), enabled: open });
  const failure = errorText(catalogue.isError ? apiErrorMessage(catalogue.error) : null, t);
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{t('ruleSources.catalogue.title')}</DialogTitle>
      <DialogContent>
        <TextField
          select
          size="small"
          margin="dense"
          label={t('ruleSources.catalogue.suricataVersion')}
          value={version}
          onChange={(event) => setVersion(event.target.value)}
          sx={{ minWidth: 200 }}
        >
          {SURICATA_VERSIONS.map((v) => (
            <MenuItem key={v} value={v}>
              {v}
            </MenuItem>
          ))}
        </TextField>
        {catalogue.isFetching && <LinearProgress sx={{ mt: 1 }} />}
        {failure !== null && <Alert severity="error">{failure}</Alert>}
        <List aria-label={t('ruleSources.catalogue.title')}>
          {(catalogue.data?.data ?? []).map((entry) => (
            <ListItem
              key={entry.id}
              divider
              secondaryAction={
                <Button
                  variant="outlined"
                  size="small"
                  aria-label={t('ruleSources.catalogue.addName', { name: entry.name })}
                  onClick={() => onPick(entry)}
                >
                  {added.has(entry.id)
                    ? t('ruleSources.catalogue.addAgain')
                    : t('ruleSources.catalogue.add')}
                </Button>
              }
            >
              <ListItemText
                sx={{ pe: 12 }}
                primary={
                  <>
                    {entry.name}{' '}
                    {entry.requires_secret && (
                      <Chip size="small" label={t('ruleSources.catalogue.needsSecret')} />
                    )}{' '}
                    {added.has(entry.id) && (
                      <Chip size="small" color="success" label={t('ruleSources.catalogue.added')} />
                    )}
                  </>
                }
                secondary={`${entry.vendor} · ${entry.license} — ${entry.description}`}
              />
            </ListItem>
          ))}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('common.close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
