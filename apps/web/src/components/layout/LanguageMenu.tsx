import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import TranslateIcon from '@mui/icons-material/Translate';
import { isLanguage, switchLanguage, type Language } from '../../lib/i18n';

/** The menu (MUI Menu, Popover, Modal) loads on first open. */
const LanguageList = lazy(() =>
  import('./LanguageList').then((m) => ({ default: m.LanguageList })),
);

/** The language switch; the choice is remembered in the persisted main state. */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'en';
  const choose = (language: Language) => {
    setAnchor(null);
    switchLanguage(language).catch((error: unknown) =>
      console.warn('language switch failed', error),
    );
  };
  return (
    <>
      <Button
        color="inherit"
        startIcon={<TranslateIcon />}
        // The name holds the visible code too (WCAG 2.5.3, label in name).
        aria-label={`${t('layout.language')}: ${current.toUpperCase()}`}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {current.toUpperCase()}
      </Button>
      {anchor !== null && (
        <Suspense fallback={null}>
          <LanguageList
            anchor={anchor}
            current={current}
            onChoose={choose}
            onClose={() => setAnchor(null)}
          />
        </Suspense>
      )}
    </>
  );
}
