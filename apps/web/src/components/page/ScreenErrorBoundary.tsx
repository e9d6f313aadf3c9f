import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { endPrepaint } from '../../lib/prepaint-frame';

interface State {
  failed: boolean;
}

/**
 * A screen whose code fails to load (a stale tab after an upgrade, a dropped connection) or
 * throws while rendering shows a message and a reload button instead of a blank page.
 */
export class ScreenErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('screen failed', error, info.componentStack);
    endPrepaint();
  }

  override render(): ReactNode {
    return this.state.failed ? <ScreenFailed /> : this.props.children;
  }
}

function ScreenFailed() {
  const { t } = useTranslation();
  return (
    <div className="pal-spinner" role="alert">
      <span>{t('app.screenFailed')}</span>
      <button type="button" className="pal-reload" onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
}
