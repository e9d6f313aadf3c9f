import { useTranslation } from 'react-i18next';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';

interface AccessEditorProps {
  restricted: boolean;
  editors: number[];
  onChange: (next: { restricted: boolean; editors: number[] }) => void;
  /** Present for Administrators (GET /users/ is theirs alone); others see the list only. */
  users: { id: number; email: string }[] | undefined;
  /** The saved editors and their addresses (from the policy), for those who cannot list users. */
  storedEditors: number[];
  storedEmails: string[];
  readOnly: boolean;
}

/** Restrict access: only the chosen editors (and Administrators) may change the policy. */
export function AccessEditor({
  restricted,
  editors,
  onChange,
  users,
  storedEditors,
  storedEmails,
  readOnly,
}: AccessEditorProps) {
  const { t } = useTranslation();
  const canChoose = users !== undefined && !readOnly;
  const emailOf = (id: number) =>
    users?.find((u) => u.id === id)?.email ?? storedEmails[storedEditors.indexOf(id)] ?? `#${id}`;
  return (
    <Stack spacing={2}>
      <FormControlLabel
        control={
          <Switch
            checked={restricted}
            disabled={!canChoose}
            onChange={(event) => onChange({ restricted: event.target.checked, editors })}
          />
        }
        label={t('policies.access.restrict')}
      />
      <Alert severity="info">{t('policies.access.help')}</Alert>
      {canChoose ? (
        <Autocomplete
          multiple
          disabled={!restricted}
          options={users}
          getOptionLabel={(user) => user.email}
          value={users.filter((u) => editors.includes(u.id))}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          onChange={(_event, chosen) => onChange({ restricted, editors: chosen.map((u) => u.id) })}
          renderInput={(params) => <TextField {...params} label={t('policies.access.editors')} />}
        />
      ) : (
        <>
          {users === undefined && (
            <Alert severity="warning">{t('policies.access.adminOnly')}</Alert>
          )}
          <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 1 }}>
            {editors.length === 0 && <span>{t('policies.access.noEditors')}</span>}
            {editors.map((id) => (
              <Chip key={id} label={emailOf(id)} />
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
