import type { Language, PreviewScreen } from '@gatehouse/schemas';

/** The preview page's address with what to show: `?screen=…&lang=…&theme=light|dark` (server preview contract). */
export function previewFrameUrl(
  url: string,
  { screen, language, theme }: { screen: PreviewScreen; language: Language; theme: 'light' | 'dark' },
): string {
  const target = new URL(url, window.location.origin);
  target.searchParams.set('screen', screen);
  target.searchParams.set('lang', language);
  target.searchParams.set('theme', theme);
  // Same origin: a path keeps the console's own host (and works behind a proxy that rewrites it).
  return target.origin === window.location.origin ? `${target.pathname}${target.search}` : target.toString();
}
