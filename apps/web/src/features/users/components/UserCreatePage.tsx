import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Role } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { PageShell } from '../../../components/page/PageShell';
import { useCreateUser } from '../api/create-user';
import { UserForm, type UserFormValues } from './UserForm';

/** /admin/users/create */
export function UserCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateUser();
  const onSubmit = async ({ password, role, ...rest }: UserFormValues, saved: () => void) => {
    try {
      await withProgress({ progress: 'users.creating', success: 'users.created' }, () =>
        create.mutateAsync({ ...rest, password, role: Role.parse(role) }),
      );
      saved();
      await navigate('/admin/users/all');
    } catch (failure) {
      notifyApiError(failure, { conflict: 'errors.emailTaken' });
    }
  };
  return (
    <PageShell title={t('users.createTitle')}>
      <UserForm requirePassword submitLabel={t('users.create')} onSubmit={onSubmit} />
    </PageShell>
  );
}
