import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import SearchIcon from '@mui/icons-material/Search';
import { SearchHelp } from './SearchHelp';

const DEBOUNCE_MS = 300;

/**
 * The table's search box; tells the table 300 ms after typing stops. Under it, the search
 * syntax every list takes, then what this list's search matches (`hint`).
 */
export function SearchField({
  value,
  onChange,
  hint,
}: {
  value: string;
  onChange: (next: string) => void;
  /** What the search matches and which field:value terms it takes. */
  hint?: string;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(value);
  const helpId = useId();
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onChange(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <Box sx={{ px: 2, pt: 2 }}>
      <TextField
        size="small"
        type="search"
        value={text}
        onChange={(event) => setText(event.target.value)}
        placeholder={t('table.search')}
        helperText={hint}
        sx={hint === undefined ? undefined : { minWidth: 'min(100%, 420px)' }}
        slotProps={{
          htmlInput: { 'aria-label': t('table.search'), 'aria-describedby': helpId },
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      <SearchHelp id={helpId} />
    </Box>
  );
}
