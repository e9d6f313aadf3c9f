import { describe, expect, it } from 'vitest';
import i18next from 'i18next';
import ar from '../../locales/ar.json';
import en from '../../locales/en.json';
import ru from '../../locales/ru.json';
import { deviceStateLabel } from './device-state';

const i18n = i18next.createInstance();
await i18n.init({
  resources: { en: { translation: en }, ru: { translation: ru }, ar: { translation: ar } },
  lng: 'en',
});

describe('deviceStateLabel', () => {
  it('names the agent states in the reader’s language', async () => {
    expect(deviceStateLabel('running', i18n.t)).toBe('Running');
    expect(deviceStateLabel('error', i18n.t)).toBe('Error');
    await i18n.changeLanguage('ru');
    expect(deviceStateLabel('running', i18n.t)).toBe('Работает');
    expect(deviceStateLabel('applying', i18n.t)).toBe('Применяет конфигурацию');
    await i18n.changeLanguage('ar');
    expect(deviceStateLabel('running', i18n.t)).toBe('يعمل');
    await i18n.changeLanguage('en');
  });

  it('shows a state it does not know as sent, and none as a dash', () => {
    expect(deviceStateLabel('degraded', i18n.t)).toBe('degraded');
    expect(deviceStateLabel('toString', i18n.t)).toBe('toString');
    expect(deviceStateLabel(null, i18n.t)).toBe('–');
  });
});
