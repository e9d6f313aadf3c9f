import { MuiProviders } from '../../components/theme/MuiProviders';
import { RecoverPasswordPage } from '../../features/auth/components/RecoverPasswordPage';

export function Component() {
  return (
    <MuiProviders>
      <RecoverPasswordPage />
    </MuiProviders>
  );
}
