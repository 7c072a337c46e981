import type { User } from '@gatehouse/schemas';
import { useDeleteUserIdentity } from '../../../../api/users.ts';
import { Button } from '../../../../components/Button/Button.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { useConfirm } from '../../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { userDisplayName } from '../../user-display.ts';
import { identityRows } from './identities.ts';
import styles from './Settings.module.css';

/**
 * The user's social and enterprise identities (keyed by connector target), each with the id the provider knows them
 * by; removing one (confirmed) unlinks that sign-in method and leaves the others.
 */
export function IdentitiesCard({ user }: { user: User }) {
  const { t } = useTranslation('users');
  const confirm = useConfirm();
  const toast = useToast();
  const remove = useDeleteUserIdentity(user.id);
  const rows = identityRows(user.identities);
  const name = userDisplayName(user) ?? user.id;

  async function unlink(target: string) {
    const isConfirmed = await confirm({
      title: t('identities.remove_title'),
      content: t('identities.remove_content', { target, name }),
      confirmText: t('identities.remove'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(target);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('identities.removed', { target }));
  }

  return (
    <Card title={t('identities.title')} description={t('identities.description')}>
      {rows.length === 0 ? (
        <p className={styles.muted}>{t('identities.empty')}</p>
      ) : (
        <ul className={styles.identities} aria-label={t('identities.title')}>
          {rows.map((row) => (
            <li key={row.target} className={styles.identity}>
              <span className={styles.identityText}>
                <span className={styles.identityTarget}>{row.target}</span>
                {row.providerUserId && (
                  <span className={styles.muted}>{t('identities.provider_user_id', { id: row.providerUserId })}</span>
                )}
              </span>
              <Button
                variant="text"
                size="small"
                aria-label={t('identities.remove_named', { target: row.target })}
                onClick={() => void unlink(row.target)}
              >
                {t('identities.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
