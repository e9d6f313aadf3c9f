import { DevicesPage } from '../../features/devices/components/DevicesPage';
import { useDeviceTools } from '../device-tools';

/** /devices, with the profiles, policies and rulesets it assigns. */
export function Component() {
  const tools = useDeviceTools();
  return <DevicesPage tools={tools} />;
}
