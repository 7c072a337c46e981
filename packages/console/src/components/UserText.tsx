import type { ReactNode } from 'react';

/**
 * Text a user entered (a name, a description, an email), shown in any script: it takes its own direction, so a
 * Latin description in an Arabic console reads 'Seeded for demos.' rather than '.Seeded for demos' (issue 26).
 * Inline, inside the element that styles it: that element keeps the page's alignment and its ellipsis.
 */
export function UserText({ children }: { children: ReactNode }) {
  return <span dir="auto">{children}</span>;
}
