import type { ScimConnection } from '@gatehouse/schemas';
import { useRevokeScimToken, useRotateScimToken } from '../../../api/scim-connections.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CopyableValue } from '../../../components/CopyButton/CopyButton.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { useDateTimeFormat } from '../../users/use-date-time-format.ts';
import styles from '../EnterpriseSso.module.css';

export type EndpointCardProps = {
  connection: ScimConnection;
  /** The token just made (by the setup or a rotation): shown this once, until hidden or the page is left. */
  token: string | undefined;
  onToken: (token: string) => void;
  onHideToken: () => void;
};

/**
 * What the directory is configured with: the SCIM base URL and the bearer token, each with a copy button. The token
 * shows only right after it was made (the server keeps its hash); rotating makes a new one (the old one stops at
 * once), revoking leaves none until one is generated. Both ask first.
 */
export function EndpointCard({ connection, token, onToken, onHideToken }: EndpointCardProps) {
  const { t } = useTranslation('enterprise_sso');
  const confirm = useConfirm();
  const toast = useToast();
  const formatTime = useDateTimeFormat();
  const rotate = useRotateScimToken(connection);
  const revoke = useRevokeScimToken(connection);
  const baseUrlLabel = t('scim.endpoint.base_url');
  const tokenLabel = t('scim.endpoint.token');

  /** Runs a write; the API layer has shown why it failed. */
  async function attempt<T>(write: () => Promise<T>): Promise<T | undefined> {
    try {
      return await write();
    } catch (error) {
      if (handleSubmitError(error, toast)) return undefined;
      throw error;
    }
  }

  async function makeToken() {
    const isRotation = connection.hasToken;
    if (isRotation) {
      const isConfirmed = await confirm({
        title: t('scim.rotate.title'),
        content: t('scim.rotate.content'),
        confirmText: t('scim.rotate.confirm'),
        isDanger: true,
      });
      if (!isConfirmed) return;
    }
    const made = await attempt(() => rotate.mutateAsync());
    if (!made) return;
    onToken(made.token);
    if (isRotation) toast.success(t('scim.rotate.done'));
    else toast.success(t('scim.generate.done'));
  }

  async function revokeToken() {
    const isConfirmed = await confirm({
      title: t('scim.revoke.title'),
      content: t('scim.revoke.content'),
      confirmText: t('scim.revoke.confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    if ((await attempt(() => revoke.mutateAsync())) === undefined) return;
    onHideToken();
    toast.success(t('scim.revoke.done'));
  }

  return (
    <Card
      title={t('scim.endpoint.title')}
      description={t('scim.endpoint.description')}
      actions={
        connection.hasToken ? (
          <>
            <Button onClick={makeToken}>{t('scim.rotate.action')}</Button>
            <Button variant="dangerOutline" onClick={revokeToken}>
              {t('scim.revoke.action')}
            </Button>
          </>
        ) : (
          <Button onClick={makeToken}>{t('scim.generate.action')}</Button>
        )
      }
    >
      <dl className={styles.facts} data-testid="scim-endpoint">
        <dt>{baseUrlLabel}</dt>
        <dd>
          <CopyableValue value={connection.baseUrl} label={t('scim.endpoint.copy', { name: baseUrlLabel })} />
        </dd>
        <dt>{tokenLabel}</dt>
        <dd data-testid="scim-token">
          {token ? (
            <div className={styles.freshToken}>
              <CopyableValue value={token} label={t('scim.endpoint.copy', { name: tokenLabel })} />
              <p role="alert" className={styles.warning}>
                {t('scim.endpoint.shown_once')}
              </p>
              <div>
                <Button variant="text" onClick={onHideToken}>
                  {t('scim.endpoint.hide')}
                </Button>
              </div>
            </div>
          ) : connection.hasToken && connection.tokenCreatedAt !== null ? (
            <span className={styles.muted}>
              {t('scim.endpoint.token_hidden', { date: formatTime(connection.tokenCreatedAt) })}
            </span>
          ) : (
            <span className={styles.tokenState}>
              <Tag status="warning">{t('scim.endpoint.token_revoked')}</Tag>
              <span className={styles.muted}>{t('scim.endpoint.token_revoked_hint')}</span>
            </span>
          )}
        </dd>
        <dt>{t('scim.endpoint.last_request')}</dt>
        <dd>
          {connection.lastRequestAt === null ? (
            <span className={styles.muted}>{t('scim.endpoint.no_requests')}</span>
          ) : (
            formatTime(connection.lastRequestAt)
          )}
        </dd>
      </dl>
    </Card>
  );
}
