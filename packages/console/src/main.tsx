import './app/theme.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { initI18n } from './i18n/index.ts';

function render(): void {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The router (imported above) has already started loading the first page; the strings load alongside it.
// Not a top-level await: that would stop the bundler from merging shared code into this entry chunk.
void initI18n().then(render);
