import { Link } from 'react-router';
import {
  useAllSsoConnectors,
  useOrganizationJitSsoConnectors,
  useReplaceOrganizationJitSsoConnectors,
} from '../../../api/sso-connectors.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { Checkbox } from '../../../components/form/Checkbox.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { UserText } from '../../../components/UserText.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toSsoConnectors } from '../../enterprise-sso/links.ts';
import styles from '../Organizations.module.css';

/**
 * Just-in-time provisioning by enterprise SSO (reference `/organizations/{id}/jit/sso-connectors`): users who sign in
 * through a ticked connector join the organization. A tick saves at once (PUT of the whole set, which is small).
 */
export function JitSsoConnectors({ organizationId }: { organizationId: string }) {
  const { t } = useTranslation('organizations');
  const resolve = useTenantPath();
  const toast = useToast();
  const all = useAllSsoConnectors();
  const picked = useOrganizationJitSsoConnectors(organizationId);
  const replace = useReplaceOrganizationJitSsoConnectors(organizationId);

  const isLoading = all.isPending || picked.isPending;
  const failed = all.isError || picked.isError;
  const pickedIds = new Set(picked.data?.items.map((connector) => connector.id));

  async function toggle(id: string, on: boolean) {
    const next = new Set(pickedIds);
    if (on) next.add(id);
    else next.delete(id);
    try {
      await replace.mutateAsync([...next]);
      toast.success(t('jit_sso.saved'));
    } catch (error) {
      if (!handleSubmitError(error, toast)) throw error;
    }
  }

  return (
    <Card title={t('jit_sso.title')} description={t('jit_sso.description')}>
      {isLoading ? (
        <p role="status">
          <Spinner /> {t('jit_sso.loading')}
        </p>
      ) : failed ? (
        <p role="alert">
          {t('jit_sso.load_failed')}{' '}
          <Button
            onClick={() => {
              void all.refetch();
              void picked.refetch();
            }}
          >
            {t('jit_sso.retry')}
          </Button>
        </p>
      ) : all.data?.items.length ? (
        <div className={styles.form} data-testid="jit-sso-connectors">
          {all.data.items.map((connector) => (
            <Checkbox
              key={connector.id}
              label={<UserText>{connector.connectorName}</UserText>}
              checked={pickedIds.has(connector.id)}
              disabled={replace.isPending}
              onChange={(event) => void toggle(connector.id, event.target.checked)}
            />
          ))}
        </div>
      ) : (
        <p>
          {t('jit_sso.none')} <Link to={resolve(toSsoConnectors())}>{t('jit_sso.set_up')}</Link>
        </p>
      )}
    </Card>
  );
}
