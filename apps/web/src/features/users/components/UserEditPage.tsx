import { useNavigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Role } from '@palisade/contract';
import { notifyApiError } from '../../../components/notifications/notify';
import { withProgress } from '../../../components/notifications/queue';
import { EmptyState } from '../../../components/page/EmptyState';
import { FullPageSpinner } from '../../../components/page/FullPageSpinner';
import { PageShell } from '../../../components/page/PageShell';
import { userQueryOptions } from '../api/get-user';
import { useUpdateUser } from '../api/update-user';
import { UserForm, type UserFormValues } from './UserForm';

/** /admin/users/edit/{id} (route name Admin-Users-Edit). */
export function UserEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = Number(useParams().id);
  const user = useQuery({ ...userQueryOptions(id), enabled: Number.isInteger(id) && id > 0 });
  const update = useUpdateUser(id);
  const onSubmit = async ({ password, role, ...rest }: UserFormValues, saved: () => void) => {
    try {
      await withProgress({ progress: 'users.updating', success: 'users.updated' }, () =>
        update.mutateAsync({
          ...rest,
          role: Role.parse(role),
          ...(password === '' ? {} : { password }),
        }),
      );
      saved();
      await navigate('/admin/users/all');
    } catch (failure) {
      notifyApiError(failure, { conflict: 'errors.emailTaken' });
    }
  };
  return (
    <PageShell title={t('users.editTitle')}>
      {user.isPending && Number.isInteger(id) && <FullPageSpinner />}
      {(user.isError || !Number.isInteger(id)) && <EmptyState title={t('users.notFound')} />}
      {user.data !== undefined && (
        <UserForm
          user={user.data}
          requirePassword={false}
          submitLabel={t('common.save')}
          onSubmit={onSubmit}
        />
      )}
    </PageShell>
  );
}
