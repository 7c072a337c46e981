import { type JwtCustomizerTokenType, jwtCustomizerConfigKeys } from '@gatehouse/schemas';
import { Link } from 'react-router';
import { useDeleteJwtCustomizer, useJwtCustomizers } from '../../api/jwt-customizer.ts';
import { PlanGate } from '../../cloud/quota/PlanGate.tsx';
import { Button, buttonClassName } from '../../components/Button/Button.tsx';
import { Card } from '../../components/Card/Card.tsx';
import { PlusIcon, TrashIcon } from '../../components/icons.tsx';
import { useConfirm } from '../../components/Modal/confirm-context.ts';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { Spinner } from '../../components/Spinner/Spinner.tsx';
import { handleSubmitError } from '../../components/submit/use-submit-handler.ts';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './CustomizeJwt.module.css';
import { toJwtEditor } from './links.ts';

/** One card per token type: Add when it has no script yet, else Edit and Delete. */
export function TokenScriptCards({ tokenTypes }: { tokenTypes: readonly JwtCustomizerTokenType[] }) {
  const { t } = useTranslation('customize_jwt');
  const list = useJwtCustomizers();
  if (list.isPending) {
    return (
      <p role="status" className={styles.muted}>
        <Spinner /> {t('index.loading')}
      </p>
    );
  }
  if (list.isError) {
    return (
      <div className={styles.state}>
        <p role="alert">{t('index.load_failed')}</p>
        <Button onClick={() => void list.refetch()}>{t('index.retry')}</Button>
      </div>
    );
  }
  const saved = new Set(list.data.map((entry) => entry.key));
  return (
    <div className={styles.tokenCards}>
      {tokenTypes.map((tokenType) => (
        <TokenScriptCard
          key={tokenType}
          tokenType={tokenType}
          isSaved={saved.has(jwtCustomizerConfigKeys[tokenType])}
        />
      ))}
    </div>
  );
}

function TokenScriptCard({ tokenType, isSaved }: { tokenType: JwtCustomizerTokenType; isSaved: boolean }) {
  const { t } = useTranslation('customize_jwt');
  const resolve = useTenantPath();
  const remove = useDeleteScript(tokenType);
  return (
    <Card
      className={styles.tokenCard}
      title={t(`token_types.${tokenType}.title`)}
      description={t(`token_types.${tokenType}.description`)}
      actions={
        isSaved ? <Tag status="success">{t('index.active')}</Tag> : <Tag status="neutral">{t('index.not_set')}</Tag>
      }
    >
      <div className={styles.cardActions}>
        {isSaved ? (
          <>
            <Link to={resolve(toJwtEditor(tokenType, 'edit'))} className={buttonClassName('default')}>
              {t('index.edit')}
            </Link>
            <Button variant="text" icon={<TrashIcon />} onClick={remove}>
              {t('index.delete')}
            </Button>
          </>
        ) : (
          <PlanGate quota="customJwtEnabled">
            <Link to={resolve(toJwtEditor(tokenType, 'create'))} className={buttonClassName('primary')}>
              <PlusIcon aria-hidden="true" />
              {t('index.add')}
            </Link>
          </PlanGate>
        )}
      </div>
    </Card>
  );
}

/** Delete after a danger confirmation; the card then offers Add again. */
export function useDeleteScript(tokenType: JwtCustomizerTokenType, onDeleted?: () => Promise<void> | void) {
  const { t } = useTranslation('customize_jwt');
  const confirm = useConfirm();
  const toast = useToast();
  const deleteScript = useDeleteJwtCustomizer(tokenType);
  return async () => {
    const title = t(`token_types.${tokenType}.title`);
    const isConfirmed = await confirm({
      title: t('delete.title'),
      content: t('delete.content', { title }),
      confirmText: t('delete.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await deleteScript.mutateAsync();
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('delete.deleted', { title }));
    await onDeleted?.();
  };
}
