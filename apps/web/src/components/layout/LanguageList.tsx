import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { LANGUAGES, LANGUAGE_NAMES, type Language } from '../../lib/i18n';

interface LanguageListProps {
  anchor: HTMLElement;
  current: Language;
  onChoose: (language: Language) => void;
  onClose: () => void;
}

export function LanguageList({ anchor, current, onChoose, onClose }: LanguageListProps) {
  return (
    <Menu anchorEl={anchor} open onClose={onClose}>
      {LANGUAGES.map((language) => (
        <MenuItem
          key={language}
          lang={language}
          selected={language === current}
          onClick={() => onChoose(language)}
        >
          {LANGUAGE_NAMES[language]}
        </MenuItem>
      ))}
    </Menu>
  );
}
