import { Fragment } from 'react';
import shared from './shared.module.css';

/**
 * An email address (or any dotted identifier) that may wrap only before its `@` and its dots, never inside a word:
 * 'ada.lovelace@' / 'example.com' rather than 'ada.lovel' / 'ace@example.com' (issue 26). Left to right in every
 * language, isolated from the text around it. A part longer than the column widens the column instead.
 */
export function EmailText({ children }: { children: string }) {
  const parts = children.split(/(?=[@.])/);
  return (
    <span dir="ltr" className={shared.email}>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one address never move.
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
