import type { ReactNode } from 'react';
import { ApiError } from '../../api/client.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { BackLink } from '../BackLink/BackLink.tsx';
import { Button } from '../Button/Button.tsx';
import { CopyableValue } from '../CopyButton/CopyButton.tsx';
import { MoreIcon } from '../icons.tsx';
import { MenuButton } from '../Menu/MenuButton.tsx';
import type { MenuEntry } from '../Menu/menu-entries.ts';
import { Spinner } from '../Spinner/Spinner.tsx';
import { type TabItem, Tabs } from '../Tabs/Tabs.tsx';
import { useDocumentTitle } from '../use-document-title.ts';
import styles from './DetailPage.module.css';

export type DetailPageProps = {
  /** The list this entity belongs to, and its name ('Back to applications'). */
  backTo: string;
  backLabel: string;
  /** The entity query's state; a 404 shows 'not found' instead of a retry. */
  isLoading: boolean;
  error?: unknown;
  onRetry?: () => void;
  title?: string;
  /** A logo or icon before the title (issue 26); decoration, as the title and tags say what the entity is. */
  icon?: ReactNode;
  /** Type tags and short facts beside the id. */
  meta?: ReactNode;
  /** The entity id, shown with a copy button. */
  id?: string;
  /** Secondary actions in the '…' menu (Delete goes last). */
  actions?: readonly MenuEntry[];
  tabs: readonly TabItem[];
  /** The tab's content (an <Outlet/>). */
  children: ReactNode;
};

/**
 * The frame of every entity detail page (spec §2.2 '{id}/{tab}'): back link, the entity's header with its id and
 * actions, routed tabs, and the states of loading the entity.
 */
export function DetailPage(props: DetailPageProps) {
  const { t } = useTranslation('components');
  const { backTo, backLabel, isLoading, error, onRetry, title } = props;
  useDocumentTitle(title ?? backLabel);
  const back = <BackLink to={backTo}>{backLabel}</BackLink>;

  if (isLoading) {
    return (
      <div className={styles.page}>
        {back}
        <div className={styles.state}>
          <Spinner />
          <span role="status">{t('loading')}</span>
        </div>
      </div>
    );
  }
  if (error || !title) {
    const isMissing = error instanceof ApiError && error.status === 404;
    return (
      <div className={styles.page}>
        {back}
        <section className={styles.state} aria-live="polite">
          <h1 className={styles.stateTitle}>{t(isMissing ? 'detail_page.not_found' : 'detail_page.error')}</h1>
          {!isMissing && onRetry && <Button onClick={onRetry}>{t('table.retry')}</Button>}
        </section>
      </div>
    );
  }
  return <LoadedDetailPage {...props} title={title} back={back} />;
}

function LoadedDetailPage({
  title,
  icon,
  meta,
  id,
  actions,
  tabs,
  children,
  back,
}: DetailPageProps & { title: string; back: ReactNode }) {
  const { t } = useTranslation('components');
  return (
    <div className={styles.page}>
      {back}
      <header className={styles.header}>
        {icon && (
          <span className={styles.icon} aria-hidden="true">
            {icon}
          </span>
        )}
        <div className={styles.heading}>
          <h1 className={styles.title}>{title}</h1>
          <div className={styles.meta}>
            {meta}
            {id && (
              <span className={styles.id}>
                {t('detail_page.id')} <CopyableValue value={id} label={t('detail_page.copy_id')} />
              </span>
            )}
          </div>
        </div>
        {actions && actions.length > 0 && (
          <MenuButton label={t('detail_page.more_actions')} entries={actions} className={styles.more}>
            <MoreIcon />
          </MenuButton>
        )}
      </header>
      <Tabs items={tabs} aria-label={t('detail_page.tabs', { name: title })} />
      <div className={styles.content}>{children}</div>
    </div>
  );
}
