import { Link, NavLink } from 'react-router';
import { classNames } from '../components/class-names.ts';
import { ExternalLinkIcon, SetIcon } from '../components/icons.tsx';
import { useTranslation } from '../i18n/react.tsx';
import { availableSidebarItems } from './areas.ts';
import { edition } from './edition.ts';
import { isAbsoluteUrl } from './external-links.ts';
import styles from './Sidebar.module.css';
import { type SidebarExtraRow, sidebarExtraRows, sidebarItemPath, visibleSidebar } from './sidebar.ts';

const available = availableSidebarItems(edition);

type Props = { onOpenContact: () => void };

type SidebarProps = Props & {
  id?: string;
  /** At tablet and phone widths the sidebar is a menu the top bar opens; wider, it is always shown. */
  isOpen?: boolean;
};

/** Spec §2.3: internal links with an active state, an external link in a new tab, a modal opener. */
export function Sidebar({ id, isOpen = false, onOpenContact }: SidebarProps) {
  const { t } = useTranslation();
  return (
    <nav id={id} className={styles.sidebar} aria-label={t('sidebar.label')} data-open={isOpen || undefined}>
      {visibleSidebar(edition, available).map((section) => (
        <div key={section.key} className={styles.section}>
          <h2 className={styles.sectionTitle} id={`sidebar-${section.key}`}>
            {t(`sidebar.sections.${section.key}`)}
          </h2>
          <ul className={styles.items} aria-labelledby={`sidebar-${section.key}`}>
            {section.items.map((item) => (
              <li key={item.key}>
                {/* Relative to the shell's route, so the same link works under '/' and '/{tenantId}'. */}
                <NavLink className={styles.link} to={sidebarItemPath(item)} data-sidebar-item={item.key}>
                  <SetIcon icon={item.icon} className={styles.icon} />
                  <Label text={t(`sidebar.items.${item.key}`)} />
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <ul className={classNames(styles.items, styles.more)} aria-label={t('sidebar.more.label')}>
        {sidebarExtraRows().map((row) => (
          <li key={row.key}>
            <ExtraRow row={row} onOpenContact={onOpenContact} />
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * The whole label, on two lines when a language's label needs them (issue 40, item 5: cut with an ellipsis,
 * 'Organization tem…' hid what the item was). The same text in the active weight, invisible in the same grid cell,
 * sizes the label, so the active item's heavier weight never makes it (and every item below it) move (issue 26).
 */
function Label({ text }: { text: string }) {
  return (
    <span className={styles.label} data-label={text}>
      <span className={styles.labelText}>{text}</span>
    </span>
  );
}

function ExtraRow({ row, onOpenContact }: { row: SidebarExtraRow } & Props) {
  const { t } = useTranslation();
  const label = t(`sidebar.more.${row.key}`);
  if (row.kind === 'modal') {
    return (
      <button type="button" className={styles.link} aria-haspopup="dialog" onClick={onOpenContact}>
        <SetIcon icon={row.icon} className={styles.icon} />
        <Label text={label} />
      </button>
    );
  }
  // Spec §2.11: a link that is not an absolute URL is a route of the console.
  if (!isAbsoluteUrl(row.href)) {
    return (
      <Link className={styles.link} to={row.href}>
        <SetIcon icon={row.icon} className={styles.icon} />
        <Label text={label} />
      </Link>
    );
  }
  return (
    <a className={styles.link} href={row.href} target="_blank" rel="noopener noreferrer">
      <SetIcon icon={row.icon} className={styles.icon} />
      <Label text={label} />
      <ExternalLinkIcon className={styles.external} aria-hidden="true" />
      <span className={styles.visuallyHidden}>{t('new_tab')}</span>
    </a>
  );
}
