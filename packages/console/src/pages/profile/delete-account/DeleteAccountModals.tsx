import type { AccountDeletionBlocker, AccountDeletionPreview, AccountDeletionTenant } from '@gatehouse/schemas';
import { useId } from 'react';
import { Button } from '../../../components/Button/Button.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { issuesByTenant } from './blockers.ts';
import styles from './DeleteAccount.module.css';

/** While the server says what the deletion would do (the guard runs on its answer). */
export function CheckingModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('profile');
  return (
    <Modal isOpen size="small" title={t('delete_account.title')} onClose={onClose}>
      <p className={styles.status} role="status">
        <Spinner />
        {t('delete_account.checking')}
      </p>
    </Modal>
  );
}

/** The preview could not be read: nothing can be decided, so the flow offers to ask again. */
export function CheckFailedModal({ onRetry, onClose }: { onRetry: () => unknown; onClose: () => void }) {
  const { t } = useTranslation('profile');
  return (
    <Modal
      isOpen
      size="small"
      title={t('delete_account.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('delete_account.cancel')}</Button>
          <Button variant="primary" onClick={onRetry}>
            {t('delete_account.retry')}
          </Button>
        </>
      }
    >
      <p role="alert">{t('delete_account.check_failed')}</p>
    </Modal>
  );
}

/**
 * Spec §4 "Delete account" step 1, the guard: tenants the deletion would delete while someone pays for them. It lists
 * each tenant's issues and offers no way on: only closing.
 */
export function BlockedModal({
  blockers,
  onClose,
}: {
  blockers: readonly AccountDeletionBlocker[];
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  return (
    <Modal
      isOpen
      role="alertdialog"
      title={t('delete_account.blocked_title')}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('delete_account.got_it')}
        </Button>
      }
    >
      <div className={styles.stack}>
        <p>{t('delete_account.blocked_description')}</p>
        <ul className={styles.tenants} aria-label={t('delete_account.blocked_list')}>
          {issuesByTenant(blockers).map((tenant) => (
            <li key={tenant.tenantId}>
              <span className={styles.tenantName}>
                <UserText>{tenant.tenantName}</UserText>
              </span>
              <ul className={styles.reasons}>
                {tenant.reasons.map((reason) => (
                  <li key={reason}>{t(`delete_account.reasons.${reason}`)}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </div>
    </Modal>
  );
}

function TenantList({ heading, tenants }: { heading: string; tenants: readonly AccountDeletionTenant[] }) {
  const { t } = useTranslation('profile');
  const headingId = useId();
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.heading}>
        {heading}
      </h3>
      {tenants.length ? (
        <ul className={styles.tenants}>
          {tenants.map((tenant) => (
            <li key={tenant.id} className={styles.tenantName}>
              <UserText>{tenant.name}</UserText>
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>{t('delete_account.none')}</p>
      )}
    </section>
  );
}

/** Step 2: what the deletion does, tenant by tenant, before the final confirmation. */
export function ReviewModal({
  preview,
  onContinue,
  onClose,
}: {
  preview: AccountDeletionPreview;
  onContinue: () => unknown;
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  return (
    <Modal
      isOpen
      role="alertdialog"
      title={t('delete_account.title')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('delete_account.cancel')}</Button>
          <Button variant="primary" onClick={onContinue}>
            {t('delete_account.continue')}
          </Button>
        </>
      }
    >
      <div className={styles.stack}>
        <p>{t('delete_account.review_description')}</p>
        <TenantList heading={t('delete_account.deletes_heading')} tenants={preview.deletes} />
        <TenantList heading={t('delete_account.leaves_heading')} tenants={preview.leaves} />
      </div>
    </Modal>
  );
}

/** Step 3's wait: no way out while the server deletes (closing would not stop it). */
export function DeletingModal() {
  const { t } = useTranslation('profile');
  return (
    <Modal
      isOpen
      size="small"
      title={t('delete_account.deleting_title')}
      onClose={() => undefined}
      hasCloseButton={false}
    >
      <p className={styles.status} role="status">
        <Spinner />
        {t('delete_account.deleting')}
      </p>
    </Modal>
  );
}

/**
 * Spec §8 "Account deletion failure": a generic description, the error's message, the request id the server named
 * the request by (for support) and a 'try again later' note.
 */
export function FailedModal({
  message,
  requestId,
  onClose,
}: {
  message: string;
  requestId: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('profile');
  return (
    <Modal
      isOpen
      role="alertdialog"
      title={t('delete_account.failed_title')}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('delete_account.got_it')}
        </Button>
      }
    >
      <div className={styles.stack}>
        <p>{t('delete_account.failed_description')}</p>
        <p className={styles.message}>{message}</p>
        {requestId && (
          <dl className={styles.requestId}>
            <dt>{t('delete_account.request_id')}</dt>
            <dd>
              <CopyableValue value={requestId} label={t('delete_account.copy_request_id')} />
            </dd>
          </dl>
        )}
        <p className={styles.muted}>{t('delete_account.try_again_later')}</p>
      </div>
    </Modal>
  );
}
