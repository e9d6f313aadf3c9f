import { useState } from 'react';
import { useFieldArray, useFormState, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import type { DeviceNetwork, DeviceNetworkInput } from '@palisade/contract';
import { RouteDialog } from './RouteDialog';

type RouteValues = DeviceNetwork['routes'][number];
const mono = { fontFamily: 'monospace' } as const;

/** An address or name, left to right by its dir attribute (the right-to-left styles would flip CSS `direction`). */
const Ltr = ({ text }: { text: string }) => <bdi dir="ltr">{text}</bdi>;

/** The device's L3 routes: a table with add, edit (update route) and remove. */
export function RoutesSection({
  control,
  readOnly,
}: {
  control: Control<DeviceNetworkInput>;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const { fields, append, update, remove } = useFieldArray({ control, name: 'routes' });
  const routes = useWatch({ control, name: 'routes' }) as RouteValues[] | undefined;
  const { errors } = useFormState({ control, name: 'routes' });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const problemOf = (index: number): string | undefined => {
    const row = errors.routes?.[index];
    return (
      row?.address?.message ??
      row?.gateway?.message ??
      row?.interface?.message ??
      row?.metric?.message
    );
  };
  return (
    <>
      <Paper variant="outlined">
        <Table size="small" aria-label={t('firewall.routes.title')}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 600 }}>{t('firewall.routes.address')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('firewall.routes.gateway')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('firewall.routes.metric')}</TableCell>
              <TableCell sx={{ fontWeight: 600 }}>{t('firewall.routes.interface')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {fields.map((field, index) => {
              const route = routes?.[index];
              if (route === undefined) return null;
              const problem = problemOf(index);
              return (
                <TableRow key={field.id}>
                  <TableCell sx={mono}>
                    <Ltr text={route.address} />
                    {problem !== undefined && (
                      <Typography variant="caption" color="error" component="div">
                        {problem}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell sx={mono}>
                    <Ltr text={route.gateway} />
                  </TableCell>
                  <TableCell>{route.metric ?? ''}</TableCell>
                  <TableCell sx={mono}>
                    <Ltr text={route.interface} />
                  </TableCell>
                  <TableCell align="right">
                    {!readOnly && (
                      <>
                        <IconButton
                          size="small"
                          aria-label={t('firewall.routes.edit', { address: route.address })}
                          onClick={() => setEditing(index)}
                        >
                          <EditIcon fontSize="small" />
                        </IconButton>
                        <IconButton
                          size="small"
                          aria-label={t('firewall.routes.remove', { address: route.address })}
                          onClick={() => remove(index)}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
            {fields.length === 0 && (
              <TableRow>
                <TableCell colSpan={5} sx={{ py: 3, textAlign: 'center', color: 'text.secondary' }}>
                  {t('firewall.routes.empty')}
                </TableCell>
              </TableRow>
            )}
          </TableBody>
        </Table>
      </Paper>
      {!readOnly && (
        <Button startIcon={<AddIcon />} onClick={() => setEditing('new')} sx={{ mt: 1 }}>
          {t('firewall.routes.add')}
        </Button>
      )}
      {editing !== null && (
        <RouteDialog
          route={editing === 'new' ? null : (routes?.[editing] ?? null)}
          onClose={() => setEditing(null)}
          onSave={(route) => {
            if (editing === 'new') append(route);
            else update(editing, route);
            setEditing(null);
          }}
        />
      )}
    </>
  );
}
