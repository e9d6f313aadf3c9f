import { Navigate, useParams } from 'react-router';
import { DevicePage } from '../../features/monitoring/components/DevicePage';

/** /devices/{id}: one device's status, health and charts. */
export function Component() {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <Navigate to="/devices" replace />;
  return <DevicePage key={id} deviceId={id} />;
}
