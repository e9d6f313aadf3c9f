import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import TranslateIcon from '@mui/icons-material/Translate';
import {
  LANGUAGES,
  LANGUAGE_NAMES,
  isLanguage,
  switchLanguage,
  type Language,
} from '../../lib/i18n';

/** The top bar's language switch; the choice is remembered in the persisted main state. */
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
        aria-label={t('layout.language')}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {current.toUpperCase()}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {LANGUAGES.map((language) => (
          <MenuItem
            key={language}
            lang={language}
            selected={language === current}
            onClick={() => choose(language)}
          >
            {LANGUAGE_NAMES[language]}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
