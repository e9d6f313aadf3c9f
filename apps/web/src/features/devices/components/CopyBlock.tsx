import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { notifyErrorKey, notifySuccess } from '../../../components/notifications/notify';

async function copy(text: string): Promise<void> {
  try {
    // Absent outside secure contexts (plain http to a LAN address).
    if (typeof navigator.clipboard === 'undefined') throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    notifySuccess('devices.startup.copied');
  } catch {
    notifyErrorKey('devices.startup.copyFailed');
  }
}

/** Monospace text to paste into a terminal, with a copy button. */
export function CopyBlock({ text, label }: { text: string; label: string }) {
  const { t } = useTranslation();
  return (
    <Box
      sx={{
        position: 'relative',
        bgcolor: 'action.hover',
        borderRadius: 1,
        p: 1.5,
        pe: 6,
        my: 1,
      }}
    >
      <Box
        component="pre"
        aria-label={label}
        dir="ltr"
        sx={{
          m: 0,
          fontFamily: 'monospace',
          fontSize: 13,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-all',
          textAlign: 'start',
        }}
      >
        {text}
      </Box>
      <Tooltip title={t('devices.startup.copy')}>
        <IconButton
          aria-label={t('devices.startup.copyLabel', { what: label })}
          onClick={() => void copy(text)}
          size="small"
          sx={{ position: 'absolute', top: 6, insetInlineEnd: 6 }}
        >
          <ContentCopyIcon fontSize="small" />
        </IconButton>
      </Tooltip>
    </Box>
  );
}
