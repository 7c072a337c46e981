import type { Application, ApplicationSecret } from '@gatehouse/schemas';
import { useState } from 'react';
import { useApplicationSecrets, useDeleteSecret, useRevealSecret } from '../../../../api/applications.ts';
import { Button } from '../../../../components/Button/Button.tsx';
import { Card } from '../../../../components/Card/Card.tsx';
import { CopyableValue } from '../../../../components/CopyButton/CopyButton.tsx';
import { PlusIcon } from '../../../../components/icons.tsx';
import { useConfirm } from '../../../../components/Modal/confirm-context.ts';
import { Table, type TableColumn } from '../../../../components/Table/Table.tsx';
import { Tag } from '../../../../components/Tag/Tag.tsx';
import { useToast } from '../../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../../i18n/react.tsx';
import { CreateSecretDialog, RenameSecretDialog } from './SecretDialogs.tsx';
import styles from './Secrets.module.css';
import { secretStatus } from './secret-form.ts';

type Dialog = { kind: 'create' } | { kind: 'rename'; secret: ApplicationSecret } | undefined;

/** Named client secrets (reference EndpointsAndCredentials): several may be valid at once, e.g. while rotating. */
export function SecretsCard({ application }: { application: Application }) {
  const { t, i18n } = useTranslation('applications');
  const secrets = useApplicationSecrets(application.id);
  const remove = useDeleteSecret(application.id);
  const reveal = useRevealSecret(application.id);
  const confirm = useConfirm();
  const toast = useToast();
  const [dialog, setDialog] = useState<Dialog>();
  /** Values the user asked to see in this visit (each reveal is in the audit log); hidden again on request. */
  const [revealed, setRevealed] = useState<ReadonlyMap<string, string>>(new Map());
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });

  async function deleteSecret(secret: ApplicationSecret) {
    const confirmed = await confirm({
      title: t('secrets.delete_title'),
      content: t('secrets.delete_confirm', { name: secret.name }),
      confirmText: t('secrets.delete'),
      isDanger: true,
    });
    if (!confirmed) return;
    try {
      await remove.mutateAsync(secret.name);
    } catch {
      return; // The API layer has shown why.
    }
    toast.success(t('secrets.deleted', { name: secret.name }));
  }

  async function toggleReveal(secret: ApplicationSecret) {
    if (revealed.has(secret.name)) {
      setRevealed((current) => new Map([...current].filter(([name]) => name !== secret.name)));
      return;
    }
    const full = await reveal.mutateAsync(secret.name).catch(() => undefined);
    if (full) setRevealed((current) => new Map(current).set(secret.name, full.value));
  }

  const columns: TableColumn<ApplicationSecret>[] = [
    { key: 'name', title: t('secrets.name'), render: (secret) => secret.name },
    {
      key: 'value',
      title: t('secrets.value'),
      render: (secret) => {
        const value = revealed.get(secret.name);
        return value ? (
          <CopyableValue value={value} label={t('secrets.copy', { name: secret.name })} />
        ) : (
          <code className={styles.masked} dir="ltr">
            {secret.value}
          </code>
        );
      },
    },
    { key: 'created', title: t('secrets.created'), noWrap: true, render: (secret) => date.format(secret.createdAt) },
    {
      key: 'expires',
      noWrap: true,
      title: t('secrets.expires'),
      render: (secret) =>
        secretStatus(secret.expiresAt) === 'expired' ? (
          <Tag status="error">{t('secrets.expired')}</Tag>
        ) : secret.expiresAt === null ? (
          t('secrets.never')
        ) : (
          date.format(secret.expiresAt)
        ),
    },
    {
      key: 'actions',
      title: <span className={styles.actionsTitle}>{t('secrets.actions')}</span>,
      className: styles.actionsCell,
      render: (secret) => (
        <span className={styles.actions}>
          <Button
            variant="text"
            size="small"
            aria-label={t(revealed.has(secret.name) ? 'secrets.hide_named' : 'secrets.reveal_named', {
              name: secret.name,
            })}
            onClick={() => toggleReveal(secret)}
          >
            {revealed.has(secret.name) ? t('secrets.hide') : t('secrets.reveal')}
          </Button>
          <Button
            variant="text"
            size="small"
            aria-label={t('secrets.rename_named', { name: secret.name })}
            onClick={() => setDialog({ kind: 'rename', secret })}
          >
            {t('secrets.rename')}
          </Button>
          <Button
            variant="text"
            size="small"
            aria-label={t('secrets.delete_named', { name: secret.name })}
            onClick={() => deleteSecret(secret)}
          >
            {t('secrets.delete')}
          </Button>
        </span>
      ),
    },
  ];

  return (
    <Card
      title={t('secrets.title')}
      description={t('secrets.description')}
      actions={
        <Button icon={<PlusIcon />} onClick={() => setDialog({ kind: 'create' })}>
          {t('secrets.create')}
        </Button>
      }
    >
      <Table
        aria-label={t('secrets.title')}
        columns={columns}
        rows={secrets.data}
        rowKey={(secret) => secret.name}
        isLoading={secrets.isPending}
        error={secrets.error}
        onRetry={() => void secrets.refetch()}
        empty={<p className={styles.empty}>{t('secrets.empty')}</p>}
      />
      {dialog?.kind === 'create' && (
        <CreateSecretDialog applicationId={application.id} onClose={() => setDialog(undefined)} />
      )}
      {dialog?.kind === 'rename' && (
        <RenameSecretDialog
          applicationId={application.id}
          secret={dialog.secret}
          onClose={() => setDialog(undefined)}
          onRenamed={(newName) =>
            setRevealed((current) => {
              const value = current.get(dialog.secret.name);
              const next = new Map([...current].filter(([name]) => name !== dialog.secret.name));
              return value === undefined ? next : next.set(newName, value);
            })
          }
        />
      )}
    </Card>
  );
}
