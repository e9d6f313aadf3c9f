import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './EmptyState';
import { PageShell } from './PageShell';

interface AreaPlaceholderProps {
  title: string;
  description: string;
  icon: ReactNode;
}

/** A real page shell for an area whose screens arrive in a later release: no fake data. */
export function AreaPlaceholder({ title, description, icon }: AreaPlaceholderProps) {
  const { t } = useTranslation();
  return (
    <PageShell title={title}>
      <EmptyState
        icon={icon}
        title={t('placeholder.title')}
        body={`${description} ${t('placeholder.body')}`}
      />
    </PageShell>
  );
}
