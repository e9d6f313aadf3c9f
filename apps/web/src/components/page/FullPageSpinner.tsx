import { useTranslation } from 'react-i18next';

/**
 * Spec §2: while the login state is unknown a 'Loading...' spinner stands in for the screen.
 * Plain markup (styles in app/base.css) so the first screen needs no component-kit code.
 */
export function FullPageSpinner() {
  const { t } = useTranslation();
  return (
    <div
      className="pal-spinner"
      role="progressbar"
      aria-busy="true"
      aria-label={t('common.loading')}
    >
      <span className="pal-spinner__ring" />
      <span>{t('common.loading')}</span>
    </div>
  );
}
