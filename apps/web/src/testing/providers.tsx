import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import en from '../locales/en.json';

const i18n = i18next.createInstance();
void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * What every rendered component has around it in the console, for tests: a fresh query client
 * (no retries, so a failed call shows at once) and the English texts.
 */
export function TestProviders({
  children,
  staleTime,
}: {
  children: ReactNode;
  /** Keep answers this long (a screen test may not want its first answer fetched again). */
  staleTime?: number;
}) {
  const client = new QueryClient({
    defaultOptions: {
      queries: { retry: false, ...(staleTime === undefined ? {} : { staleTime }) },
      mutations: { retry: false },
    },
  });
  return (
    <QueryClientProvider client={client}>
      <I18nextProvider i18n={i18n}>{children}</I18nextProvider>
    </QueryClientProvider>
  );
}
