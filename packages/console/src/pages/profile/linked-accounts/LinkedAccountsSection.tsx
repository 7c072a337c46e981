import type { MeSocialConnector } from '@gatehouse/schemas';
import { useNavigate } from 'react-router';
import { useMySocialConnectors, useUnlinkSocialIdentity } from '../../../api/me-linked-accounts.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { EmailText } from '../../../components/EmailText.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toLinkEmail } from '../links.ts';
import styles from '../Profile.module.css';
import { ProfileRow } from '../ProfileRow.tsx';
import { type ProfileRouteState, parseProfileRouteState } from '../route-state.ts';
import type { ProfileSectionProps } from '../section-props.ts';
import own from './LinkedAccounts.module.css';
import { useSocialLinking } from './use-social-linking.ts';

/** A name map read in the interface language, English when it has none. */
export function nameIn(name: Record<string, string>, language: string): string {
  return name[language] ?? name[language.split('-')[0] ?? ''] ?? name.en ?? Object.values(name)[0] ?? '';
}

/** The logo for the current theme: the dark one on a dark page when the connector has one. */
function logoOf(connector: MeSocialConnector): string {
  const isDark = typeof document !== 'undefined' && document.documentElement.dataset.theme === 'dark';
  return (isDark && connector.logoDark) || connector.logo;
}

/**
 * Spec §2.12 (cloud only): the account's email, which a code sent to it links or changes, and one row per social
 * connector of the console, each connected through a popup or disconnected after a confirmation.
 */
export function LinkedAccountsSection({ me }: ProfileSectionProps) {
  const { t, i18n } = useTranslation('profile');
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const connectors = useMySocialConnectors();
  const { mutateAsync: unlink } = useUnlinkSocialIdentity();
  const { connect, linkingId } = useSocialLinking();
  // Spec §2.12: link-email carries the current email and the action changeEmail; parsing drops a malformed email.
  const emailState: ProfileRouteState = parseProfileRouteState({
    email: me.primaryEmail ?? undefined,
    action: 'changeEmail',
  });
  const hasEmail = Boolean(me.primaryEmail);
  const notSet = <span className={styles.muted}>{t('not_set')}</span>;

  async function disconnect(connector: MeSocialConnector, name: string) {
    const isConfirmed = await confirm({
      title: t('linked_accounts.disconnect_title', { name }),
      content: t('linked_accounts.disconnect_content', { name }),
      confirmText: t('linked_accounts.disconnect'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await unlink(connector.id);
      toast.success(t('linked_accounts.social_removed', { name }));
    } catch (error) {
      // The global toast said why (the last way to sign in, a link already gone).
      if (!handleSubmitError(error, toast)) throw error;
    }
  }

  function socialRow(connector: MeSocialConnector) {
    const name = nameIn(connector.name, i18n.language);
    const { identity } = connector;
    return (
      <ProfileRow
        key={connector.id}
        label={
          <span className={own.connector}>
            <img className={own.logo} src={logoOf(connector)} alt="" width={20} height={20} />
            <UserText>{name}</UserText>
          </span>
        }
        // The provider's account linked: its email, else its name, else its id there.
        value={
          identity?.email ? (
            <EmailText>{identity.email}</EmailText>
          ) : identity ? (
            <UserText>{identity.name ?? identity.userId}</UserText>
          ) : (
            <span className={styles.muted}>{t('linked_accounts.not_connected')}</span>
          )
        }
        action={
          identity ? (
            <Button
              size="small"
              aria-label={t('linked_accounts.disconnect_title', { name })}
              onClick={() => disconnect(connector, name)}
            >
              {t('linked_accounts.disconnect')}
            </Button>
          ) : (
            <Button
              size="small"
              aria-label={t('linked_accounts.connect_title', { name })}
              isLoading={linkingId === connector.id}
              disabled={linkingId !== undefined && linkingId !== connector.id}
              onClick={() => connect(connector.id, name)}
            >
              {t('linked_accounts.connect')}
            </Button>
          )
        }
      />
    );
  }

  return (
    <Card title={t('linked_accounts.title')} description={t('linked_accounts.description')}>
      <dl className={styles.rows}>
        <ProfileRow
          label={t('linked_accounts.email')}
          value={me.primaryEmail ? <EmailText>{me.primaryEmail}</EmailText> : notSet}
          action={
            <Button
              size="small"
              aria-label={hasEmail ? t('linked_accounts.change_email_title') : t('linked_accounts.link_email_title')}
              onClick={() => navigate(toLinkEmail(), { state: emailState })}
            >
              {/* Spec §2.12: 'change' if an email exists, otherwise 'link'. */}
              {hasEmail ? t('change') : t('linked_accounts.link')}
            </Button>
          }
        />
        {connectors.data?.map(socialRow)}
      </dl>
      {connectors.isError && (
        <div className={styles.error} role="alert">
          <p>{t('linked_accounts.load_failed')}</p>
          <Button size="small" onClick={() => connectors.refetch()}>
            {t('retry')}
          </Button>
        </div>
      )}
    </Card>
  );
}
