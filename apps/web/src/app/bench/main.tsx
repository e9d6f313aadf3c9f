import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from '../../lib/i18n';
import '../base.css';

/**
 * The benchmark pages' entry (bench.html), built only by `vite build --mode bench` into
 * dist-bench/: the production console neither contains nor serves it. The table page is its
 * own chunk (bench-table-*.js), as it was a lazy route, so its mount time is measured from the
 * moment that script arrived.
 */
async function start(): Promise<void> {
  await initI18n();
  const { Component } = await import('./bench-table');
  const root = document.getElementById('root');
  if (root === null) throw new Error('#root is missing from bench.html');
  createRoot(root).render(
    <StrictMode>
      <Component />
    </StrictMode>,
  );
}

void start();
