import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { edition } from './edition.ts';
import styles from './Sidebar.module.css';
import { sidebarItemPath, visibleSidebar } from './sidebar.ts';

export function Sidebar() {
  const { t } = useTranslation();
  return (
    <nav className={styles.sidebar} aria-label={t('sidebar.label')}>
      {visibleSidebar(edition).map((section) => (
        <div key={section.key} className={styles.section}>
          <h2 className={styles.sectionTitle} id={`sidebar-${section.key}`}>
            {t(`sidebar.sections.${section.key}`)}
          </h2>
          <ul className={styles.items} aria-labelledby={`sidebar-${section.key}`}>
            {section.items.map((item) => (
              <li key={item.key}>
                {/* Relative to the shell's route, so the same link works under '/' and '/{tenantId}'. */}
                <NavLink className={styles.link} to={sidebarItemPath(item)}>
                  {t(`sidebar.items.${item.key}`)}
                </NavLink>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}
