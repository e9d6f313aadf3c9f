import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import CodeIcon from '@mui/icons-material/Code';
import { PreviewDialog } from './PreviewDialog';

/** Opens the preview of the exact script a device receives. */
export function PreviewButton({ device }: { device: { id: number; name: string } }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Tooltip title={t('firewall.preview.open')}>
        <IconButton
          size="small"
          aria-label={t('firewall.preview.openFor', { name: device.name })}
          onClick={() => setOpen(true)}
        >
          <CodeIcon fontSize="small" />
        </IconButton>
      </Tooltip>
      {open && <PreviewDialog device={device} onClose={() => setOpen(false)} />}
    </>
  );
}
