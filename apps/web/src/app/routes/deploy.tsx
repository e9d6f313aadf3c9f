import { DeployPage } from '../../features/deployments/components/DeployPage';
import { useMe } from '../../features/auth/api/me';
import { session } from '../../lib/session';
import { useStore } from '../../lib/store';
import { hasAdminAccess } from '../access';

/** /deploy: staged changes per device, deploys with a canary, the deploy settings. */
export function Component() {
  const user = useMe();
  const { authDisabled } = useStore(session);
  const canWrite = authDisabled || (user !== null && user.role !== 'Viewer');
  return <DeployPage admin={hasAdminAccess(user, authDisabled)} canWrite={canWrite} />;
}
