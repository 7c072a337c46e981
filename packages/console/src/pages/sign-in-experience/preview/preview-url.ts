import type { Language, PreviewScreen } from '@gatehouse/schemas';

/**
 * The preview page's address with what to show: `?screen=…&lang=…&theme=light|dark[&app=…]` (server preview contract;
 * `app` names the application the page signs in to, as the real page does).
 */
export function previewFrameUrl(
  url: string,
  {
    screen,
    language,
    theme,
    applicationId,
  }: { screen: PreviewScreen; language: Language; theme: 'light' | 'dark'; applicationId?: string | undefined },
): string {
  const target = new URL(url, window.location.origin);
  target.searchParams.set('screen', screen);
  target.searchParams.set('lang', language);
  target.searchParams.set('theme', theme);
  if (applicationId) target.searchParams.set('app', applicationId);
  // Same origin: a path keeps the console's own host (and works behind a proxy that rewrites it).
  return target.origin === window.location.origin ? `${target.pathname}${target.search}` : target.toString();
}
