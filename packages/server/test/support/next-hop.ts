/**
 * Where an answer sends the browser next, as a browser would go: its redirect (`Location`), or the address of a page
 * that goes on by itself (`Refresh: 0;url=…`, which our social and SSO callbacks answer with, routes/interaction.ts).
 */
export function nextHop(response: Response): string | null {
  const location = response.headers.get('Location');
  if (location) return location;
  const refresh = /^\s*\d+\s*;\s*url=(.+)$/i.exec(response.headers.get('Refresh') ?? '');
  return refresh?.[1]?.trim() ?? null;
}
