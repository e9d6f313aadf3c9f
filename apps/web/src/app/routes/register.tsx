import { MuiProviders } from '../../components/theme/MuiProviders';
import { RegisterPage } from '../../features/auth/components/RegisterPage';

export function Component() {
  return (
    <MuiProviders>
      <RegisterPage />
    </MuiProviders>
  );
}
