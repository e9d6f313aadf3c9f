import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import CodeIcon from '@mui/icons-material/Code';
import HistoryIcon from '@mui/icons-material/History';
import RouterIcon from '@mui/icons-material/Router';
import { EmptyState } from '../../../components/page/EmptyState';
import { HistoryLink } from '../../../components/page/HistoryLink';
import { VersionHistoryDialog } from '../../../components/version-history/VersionHistoryDialog';
import { apiErrorMessage, errorText } from '../../../lib/errors';
import { deviceFirewallKey } from '../api/device-firewall';
import { deviceNetworkKey, deviceNetworkQueryOptions } from '../api/device-network';
import { NetworkEditor } from './NetworkEditor';
import { PreviewDialog } from './PreviewDialog';

export interface DeviceChoice {
  id: number;
  name: string;
}

interface NetworkTabProps {
  devices: readonly DeviceChoice[];
  devicesLoading: boolean;
  canWrite: boolean;
  /** Administrators may save routes the lock-out check refused. */
  canOverrideLockout: boolean;
  /** The device chosen (kept in the address), and how to choose another. */
  deviceId: number | null;
  onDeviceChange: (id: number) => void;
}

/** Spec §2 Firewall: per-device routes in L3 mode and NAT, and the exact script preview. */
export function NetworkTab({
  devices,
  devicesLoading,
  canWrite,
  canOverrideLockout,
  deviceId,
  onDeviceChange,
}: NetworkTabProps) {
  const { t } = useTranslation();
  const chosen = devices.find((d) => d.id === deviceId) ?? devices[0] ?? null;
  const [preview, setPreview] = useState(false);
  const [history, setHistory] = useState(false);
  // A rollback replaces what the form was opened with: it opens again on the restored network.
  const [generation, setGeneration] = useState(0);
  if (devicesLoading) return <LinearProgress aria-label={t('common.loading')} />;
  if (chosen === null)
    return (
      <EmptyState
        icon={<RouterIcon sx={{ fontSize: 48, color: 'primary.main' }} />}
        title={t('firewall.network.noDevices')}
        body={t('firewall.network.noDevicesBody')}
      />
    );
  return (
    <>
      <Stack direction="row" sx={{ gap: 2, mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          select
          size="small"
          label={t('firewall.network.device')}
          value={String(chosen.id)}
          onChange={(event) => onDeviceChange(Number(event.target.value))}
          sx={{ minWidth: 260 }}
        >
          {devices.map((device) => (
            <MenuItem key={device.id} value={String(device.id)}>
              {device.name}
            </MenuItem>
          ))}
        </TextField>
        <Button startIcon={<CodeIcon />} variant="outlined" onClick={() => setPreview(true)}>
          {t('firewall.preview.open')}
        </Button>
        <Button
          startIcon={<HistoryIcon />}
          variant="outlined"
          aria-label={t('versions.historyOf', { name: chosen.name })}
          onClick={() => setHistory(true)}
        >
          {t('versions.history')}
        </Button>
        {/* The audit log of this device's routes and NAT (Administrators). */}
        <HistoryLink type="device_network" id={chosen.id} />
      </Stack>
      <DeviceNetwork
        key={`${chosen.id}:${generation}`}
        deviceId={chosen.id}
        canWrite={canWrite}
        canOverrideLockout={canOverrideLockout}
      />
      <VersionHistoryDialog
        open={history}
        name={chosen.name}
        base={`devices/${chosen.id}/network`}
        canRollBack={canWrite}
        canOverrideLockout={canOverrideLockout}
        invalidate={[deviceNetworkKey(chosen.id), deviceFirewallKey(chosen.id)]}
        onRolledBack={() => setGeneration((g) => g + 1)}
        onClose={() => setHistory(false)}
      />
      {preview && <PreviewDialog device={chosen} onClose={() => setPreview(false)} />}
    </>
  );
}

function DeviceNetwork({
  deviceId,
  canWrite,
  canOverrideLockout,
}: {
  deviceId: number;
  canWrite: boolean;
  canOverrideLockout: boolean;
}) {
  const { t } = useTranslation();
  const network = useQuery(deviceNetworkQueryOptions(deviceId));
  if (network.isPending) return <LinearProgress aria-label={t('common.loading')} />;
  if (network.isError) {
    const message = apiErrorMessage(network.error);
    return (
      <Stack direction="row" sx={{ alignItems: 'center', gap: 2 }}>
        <Typography color="error">{message === null ? '' : errorText(message, t)}</Typography>
        <Button onClick={() => void network.refetch()}>{t('common.retry')}</Button>
      </Stack>
    );
  }
  return (
    <NetworkEditor
      deviceId={deviceId}
      network={network.data}
      readOnly={!canWrite}
      canOverrideLockout={canOverrideLockout}
    />
  );
}
