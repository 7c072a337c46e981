import type { MouseEvent, ReactNode } from 'react';
import { Link, useHref, useNavigate } from 'react-router';
import { UserText } from '../UserText.tsx';
import styles from './Table.module.css';

/** Clicks on these keep their own meaning instead of opening the row. */
const interactiveSelector = 'a, button, input, select, textarea, label, [role="button"], [role="switch"]';

/**
 * A row that opens `to`. Keyboard and assistive tech use the real link in the first cell (so middle-click, copy link
 * and screen-reader link lists work); a click anywhere else on the row does the same for pointer users.
 */
export function TableRow({ to, children }: { to: string | undefined; children: ReactNode }) {
  if (!to) return <tr>{children}</tr>;
  return <LinkedRow to={to}>{children}</LinkedRow>;
}

function LinkedRow({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useNavigate();
  const href = useHref(to);
  function handleClick(event: MouseEvent<HTMLTableRowElement>) {
    if (event.target instanceof Element && event.target.closest(interactiveSelector)) return;
    if (window.getSelection()?.toString()) return; // The user is selecting text to copy, not opening the row.
    if (event.metaKey || event.ctrlKey) window.open(href, '_blank', 'noopener');
    else void navigate(to);
  }
  return (
    <tr className={styles.linkedRow} onClick={handleClick}>
      {children}
    </tr>
  );
}

/**
 * Text cells are user data (names, descriptions, emails) as often as not, in any script: each gets its own
 * direction (`dir="auto"`), so a Latin description in an Arabic console reads 'Seeded for demos.' rather than
 * '.Seeded for demos' (issue 26). A span, not the cell, carries it, so the column stays aligned with its header.
 * Cells rendering their own elements wrap their user text in `UserText` themselves.
 */
function isolated(content: ReactNode): ReactNode {
  return typeof content === 'string' && content !== '' ? <UserText>{content}</UserText> : content;
}

/** A cell; the one given `linkTo` (the first) holds the row's link. */
export function TableCell({
  linkTo,
  className,
  label,
  children,
}: {
  linkTo?: string | undefined;
  className?: string;
  /** The column's title, which a row shown as a card at narrow widths writes before the value (Table.module.css). */
  label?: string | undefined;
  children: ReactNode;
}) {
  return (
    <td className={className} data-label={label}>
      {linkTo ? (
        <Link to={linkTo} className={styles.rowLink}>
          {isolated(children)}
        </Link>
      ) : (
        isolated(children)
      )}
    </td>
  );
}
