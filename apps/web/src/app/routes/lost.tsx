import { MuiProviders } from '../../components/theme/MuiProviders';
import { LostPasswordPage } from '../../features/auth/components/LostPasswordPage';

export function Component() {
  return (
    <MuiProviders>
      <LostPasswordPage />
    </MuiProviders>
  );
}
