import type { Me } from '@gatehouse/schemas';
import { Suspense } from 'react';
import { Link, Outlet } from 'react-router';
import { useMe } from '../../api/me.ts';
import { ForbiddenAlert } from '../../auth/ForbiddenAlert.tsx';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { classNames } from '../../components/class-names.ts';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import shared from '../../components/shared.module.css';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { forEdition } from './edition-scope.ts';
import styles from './Profile.module.css';
import { profileSections } from './sections.ts';

/** What the password sub-routes read from the page. */
export type ProfileOutletContext = { me: Me };

const sections = forEdition(profileSections, import.meta.env.GATEHOUSE_EDITION);

/** Spec §2.12: the signed-in user's own account, outside any tenant (the user menu opens it in a new tab). */
export function ProfilePage() {
  const { t } = useTranslation(['profile', 'common']);
  useDocumentTitle(t('title'));
  const me = useMe();
  return (
    <div className={styles.page}>
      <header className={styles.topBar}>
        <Link to="/" className={styles.backLink}>
          {t('back_to_console')}
        </Link>
      </header>
      <main className={styles.main} aria-busy={me.isPending}>
        <PageHeader title={t('headline')} subtitle={t('description')} />
        {me.data ? (
          <>
            {sections.map(({ key, Section }) => (
              <Section key={key} me={me.data} />
            ))}
            <Outlet context={{ me: me.data } satisfies ProfileOutletContext} />
          </>
        ) : me.isError ? (
          <Card>
            <div className={styles.error} role="alert">
              <p>{t('load_error')}</p>
              <Button onClick={() => me.refetch()}>{t('retry')}</Button>
            </div>
          </Card>
        ) : (
          <ProfileSkeleton label={t('common:loading')} />
        )}
      </main>
      {/* Outside the shell, the page shows the auth.forbidden alert itself (spec §8). */}
      <Suspense fallback={null}>
        <ForbiddenAlert />
      </Suspense>
    </div>
  );
}

/** The sections' shape while the account loads (their titles and rows), so the page does not jump when it arrives. */
const skeletonSections = [
  { key: 'settings', rows: ['avatar', 'name', 'username'] },
  { key: 'password', rows: ['password'] },
  { key: 'mfa', rows: ['passkeys', 'totp'] },
];

function ProfileSkeleton({ label }: { label: string }) {
  return (
    <div role="status" data-testid="profile-skeleton">
      <span className={shared.visuallyHidden}>{label}</span>
      {skeletonSections.map((section) => (
        <Card key={section.key}>
          <span className={classNames(styles.skeleton, styles.skeletonTitle)} />
          {section.rows.map((row) => (
            <div key={row} className={styles.row} aria-hidden="true">
              <span className={styles.skeleton} />
              <span className={styles.skeleton} />
            </div>
          ))}
        </Card>
      ))}
    </div>
  );
}
