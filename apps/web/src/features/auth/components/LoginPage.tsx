import { useId, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../components/notifications/notify';
import { LANGUAGES, LANGUAGE_NAMES, isLanguage, switchLanguage } from '../../../lib/i18n';
import { loginErrorKey, type ErrorKey } from '../../../lib/errors';
import { signIn } from '../session-flow';
import { validateLogin, type LoginFields } from '../login-rules';
import './login.css';

/** Sign in. Plain markup styled like the kit (login.css): the page must load in 150 KB. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [fields, setFields] = useState<LoginFields>({ username: '', password: '' });
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ErrorKey | null>(null);
  const problems = touched ? validateLogin(fields) : {};

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(validateLogin(fields)).length > 0) return;
    setError(null);
    setBusy(true);
    try {
      await signIn(fields.username.trim(), fields.password);
      notifySuccess('auth.loggedIn');
      await navigate('/devices', { replace: true });
    } catch (failure) {
      setError(loginErrorKey(failure));
      setBusy(false);
    }
  };

  return (
    <main className="pal-auth">
      <div className="pal-auth__box">
        <div className="pal-card">
          <div className="pal-card__head">
            <span className="pal-brand">
              <svg viewBox="0 0 24 24" aria-hidden="true">
                <path d="M12 1 3 5v6c0 5.55 3.84 10.74 9 12 5.16-1.26 9-6.45 9-12V5z" />
              </svg>
              {t('app.name')}
            </span>
            <LanguageSelect />
          </div>
          <h1>{t('auth.login.title')}</h1>
          <form noValidate onSubmit={(event) => void onSubmit(event)}>
            {error !== null && (
              <p role="alert" className="pal-alert" data-testid="login-error">
                {t(error)}
              </p>
            )}
            <Field
              name="username"
              type="email"
              autoComplete="username"
              label={t('auth.fields.email')}
              value={fields.username}
              onChange={(username) => setFields((f) => ({ ...f, username }))}
              error={problems.username === undefined ? undefined : t(problems.username)}
            />
            <Field
              name="password"
              type="password"
              autoComplete="current-password"
              label={t('auth.fields.password')}
              value={fields.password}
              onChange={(password) => setFields((f) => ({ ...f, password }))}
              error={problems.password === undefined ? undefined : t(problems.password)}
            />
            <button type="submit" className="pal-submit" disabled={busy} aria-busy={busy}>
              {busy ? t('common.loading') : t('auth.login.submit')}
            </button>
          </form>
          <nav className="pal-links">
            <Link to="/lost">{t('auth.login.lost')}</Link>
            <Link to="/register">{t('auth.login.register')}</Link>
          </nav>
        </div>
        <p className="pal-copyright">{t('app.copyright', { year: 2025 })}</p>
      </div>
    </main>
  );
}

interface FieldProps {
  name: string;
  type: string;
  autoComplete: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}

function Field({ name, type, autoComplete, label, value, onChange, error }: FieldProps) {
  const id = useId();
  return (
    <div className={error === undefined ? 'pal-field' : 'pal-field pal-field--error'}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        autoComplete={autoComplete}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error !== undefined}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
      />
      {error !== undefined && (
        <span className="pal-field__error" id={`${id}-error`}>
          {error}
        </span>
      )}
    </div>
  );
}

function LanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <select
      className="pal-language"
      aria-label={t('layout.language')}
      value={isLanguage(i18n.language) ? i18n.language : 'en'}
      onChange={(event) => {
        const language = event.target.value;
        if (isLanguage(language)) void switchLanguage(language);
      }}
    >
      {LANGUAGES.map((language) => (
        <option key={language} value={language} lang={language}>
          {LANGUAGE_NAMES[language]}
        </option>
      ))}
    </select>
  );
}
