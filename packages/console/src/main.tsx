import './app/theme.css';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { InsecureContextPage } from './app/InsecureContextPage.tsx';
import { appearance } from './app/preferences/appearance.ts';
import { createConsoleRouter } from './app/router.ts';
import { hasSecureCrypto } from './app/secure-context.ts';
import { initI18n } from './i18n/index.ts';

function render(ui: ReactNode): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  createRoot(container).render(<StrictMode>{ui}</StrictMode>);
}

// Before anything renders, so a dark-mode user never sees a light flash.
appearance();

if (hasSecureCrypto()) {
  // The router starts loading the first page at once; the strings load alongside it.
  const router = createConsoleRouter();
  // Not a top-level await: that would stop the bundler from merging shared code into this entry chunk.
  void initI18n().then(() => render(<App router={router} />));
} else {
  void initI18n().then(() => render(<InsecureContextPage />));
}
