import type { OidcKey, OidcKeyStatus, OidcKeyType } from '@gatehouse/schemas';
import { useMemo, useState } from 'react';
import { useDeleteOidcKey, useOidcKeys } from '../../api/signing-keys.ts';
import { Button } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { useConfirm } from '../../components/Modal/confirm-context.ts';
import shared from '../../components/shared.module.css';
import { handleSubmitError } from '../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../components/Table/Table.tsx';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { RotateKeysModal } from './RotateKeysModal.tsx';
import styles from './SigningKeys.module.css';

/** The status label's key (`status.current`, `status.previous`). */
const statusKey: Record<OidcKeyStatus, 'current' | 'previous'> = { Current: 'current', Previous: 'previous' };

/** One key type: its keys (current first) with rotation and deletion of the previous key. */
export function KeysCard({ keyType }: { keyType: OidcKeyType }) {
  const { t, i18n } = useTranslation('signing_keys');
  const keys = useOidcKeys(keyType);
  const remove = useDeleteOidcKey(keyType);
  const confirm = useConfirm();
  const toast = useToast();
  const [isRotating, setIsRotating] = useState(false);
  const type = keyType === 'private-keys' ? 'private' : 'cookie';
  const formatTime = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }),
    [i18n.language],
  );

  async function deleteKey(key: OidcKey) {
    const isConfirmed = await confirm({
      title: t(`${type}.delete_title`),
      content: t(`${type}.delete_content`, { id: key.id }),
      confirmText: t('delete'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(key.id);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('deleted', { id: key.id }));
  }

  const columns: TableColumn<OidcKey>[] = [
    { key: 'id', title: t('columns.id'), render: (key) => <code className={styles.id}>{key.id}</code> },
    ...(keyType === 'private-keys'
      ? [
          {
            key: 'algorithm',
            title: t('columns.algorithm'),
            render: (key: OidcKey) =>
              key.signingKeyAlgorithm ? <bdi dir="ltr">{t(`algorithms.${key.signingKeyAlgorithm}`)}</bdi> : null,
          },
        ]
      : []),
    {
      key: 'created',
      noWrap: true,
      title: t('columns.created'),
      render: (key) =>
        key.createdAt === null ? (
          <span className={styles.muted}>{t('unknown')}</span>
        ) : (
          formatTime.format(key.createdAt)
        ),
    },
    {
      key: 'status',
      title: t('columns.status'),
      render: (key) => (
        <Tag status={key.status === 'Current' ? 'success' : 'neutral'}>{t(`status.${statusKey[key.status]}`)}</Tag>
      ),
    },
    {
      key: 'actions',
      title: <span className={shared.visuallyHidden}>{t('columns.actions')}</span>,
      className: styles.actionsCell,
      render: (key) =>
        key.status === 'Previous' ? (
          <Button
            variant="dangerOutline"
            size="small"
            onClick={() => deleteKey(key)}
            aria-label={t('delete_key', { id: key.id })}
          >
            {t('delete')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Card
      title={t(`${type}.title`)}
      description={t(`${type}.description`)}
      actions={<Button onClick={() => setIsRotating(true)}>{t(`${type}.rotate`)}</Button>}
    >
      <Table
        aria-label={t(`${type}.title`)}
        columns={columns}
        rows={keys.data}
        rowKey={(key) => key.id}
        isLoading={keys.isPending}
        error={keys.error}
        onRetry={() => void keys.refetch()}
      />
      {isRotating && (
        <RotateKeysModal
          keyType={keyType}
          currentAlgorithm={keys.data?.[0]?.signingKeyAlgorithm}
          onClose={() => setIsRotating(false)}
        />
      )}
    </Card>
  );
}
