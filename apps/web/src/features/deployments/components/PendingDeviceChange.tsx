import { useQuery } from '@tanstack/react-query';
import CircularProgress from '@mui/material/CircularProgress';
import { DeviceChange } from '../../../components/change-review/DeviceChange';
import { pendingDeviceDiffQueryOptions } from '../api/deployments';

/** What a deploy would send one device, shown as Review changes shows a device it reaches. */
export function PendingDeviceChange({ deviceId }: { deviceId: number }) {
  const diff = useQuery(pendingDeviceDiffQueryOptions(deviceId));
  if (!diff.data) return <CircularProgress size={20} />;
  return <DeviceChange device={diff.data} defaultExpanded />;
}
