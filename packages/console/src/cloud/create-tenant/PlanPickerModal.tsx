import { MAX_FREE_TENANTS, type Sku, type Tenant, type TenantRegion } from '@gatehouse/schemas';
import { useId } from 'react';
import { useSkus } from '../../api/billing.ts';
import { externalLinks } from '../../app/external-links.ts';
import { Button } from '../../components/Button/Button.tsx';
import { ExternalLinkIcon } from '../../components/icons.tsx';
import { Loading } from '../../components/Loading.tsx';
import { Modal } from '../../components/Modal/Modal.tsx';
import sharedStyles from '../../components/shared.module.css';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import { formatMoney } from '../billing-format.ts';
import { planLabel } from '../checkout/plan-name.ts';
import { useCheckout } from '../checkout/use-checkout.ts';
import { PlanFeatureList } from '../PlanFeatureList.tsx';
import { useTenants } from '../tenants/TenantsProvider.tsx';
import styles from './PlanPickerModal.module.css';
import { isFreeTenantLimitReached, offeredPlans } from './plan-offer.ts';
import { useCreateAndAddTenant } from './use-create-tenant.ts';

type Props = {
  /** The new Production tenant's fields from the create modal. */
  tenant: { name: string; regionName: TenantRegion };
  /** Back to the create modal (its fields kept). */
  onClose: () => void;
  /** A Free tenant was created: the caller closes everything and moves into it. */
  onCreated: (tenant: Tenant) => void;
};

/**
 * Spec §2.9, §4 checkout: one card per offered plan. Free creates the tenant at once; a paid plan starts checkout,
 * which leaves for the provider's page. While one plan is processing, the other Select buttons are disabled.
 */
export function PlanPickerModal({ tenant, onClose, onCreated }: Props) {
  const { t } = useTranslation('plans');
  const skus = useSkus('Basic');
  const { tenants } = useTenants();
  const { create, isPending: isCreatingFree } = useCreateAndAddTenant();
  const checkout = useCheckout();
  const processingId = isCreatingFree ? 'Free' : checkout.processingSkuId;
  const isFreeLimitReached = isFreeTenantLimitReached(tenants);

  const select = async (sku: Sku) => {
    if (sku.unitPrice === 0) {
      // Errors are toasted by the query client; the picker stays open to choose again.
      const created = await create({ name: tenant.name, regionName: tenant.regionName, tag: 'production' }).catch(
        () => undefined,
      );
      if (created) onCreated(created);
      return;
    }
    await checkout.start(sku.id, {
      tenantName: tenant.name,
      tenantTag: 'production',
      tenantRegionName: tenant.regionName,
    });
  };

  return (
    <Modal isOpen onClose={onClose} title={t('picker.title')} size="large">
      <p className={styles.intro}>{t('picker.description', { name: tenant.name })}</p>
      {skus.isPending && <Loading />}
      {skus.isError && (
        <div className={styles.error}>
          <p>{t('picker.load_failed')}</p>
          <Button onClick={() => skus.refetch()}>{t('picker.retry')}</Button>
        </div>
      )}
      {skus.data && (
        <ul className={styles.cards}>
          {offeredPlans(skus.data).map((sku) => (
            <PlanCard
              key={sku.id}
              sku={sku}
              isProcessing={processingId === sku.id}
              isDisabled={
                (processingId !== undefined && processingId !== sku.id) || (sku.id === 'Free' && isFreeLimitReached)
              }
              showFreeLimit={sku.id === 'Free' && isFreeLimitReached}
              onSelect={() => select(sku)}
            />
          ))}
        </ul>
      )}
    </Modal>
  );
}

type CardProps = {
  sku: Sku;
  isProcessing: boolean;
  isDisabled: boolean;
  showFreeLimit: boolean;
  onSelect: () => Promise<void>;
};

function PlanCard({ sku, isProcessing, isDisabled, showFreeLimit, onSelect }: CardProps) {
  const { t, i18n } = useTranslation('plans');
  const titleId = useId();
  const tipId = useId();
  const nameKey = planLabel(sku.id);
  const name = t(`name.${nameKey}`);
  const isPaid = sku.unitPrice > 0;
  return (
    <li className={styles.card} aria-labelledby={titleId} data-testid={`plan-${sku.id}`}>
      <div className={styles.heading}>
        <h3 id={titleId} className={styles.name}>
          {name}
        </h3>
        {nameKey === 'pro' && <Tag status="info">{t('picker.most_popular')}</Tag>}
      </div>
      <p className={styles.price}>
        <span className={styles.amount}>{formatMoney(sku.unitPrice, i18n.language)}</span>
        <span className={styles.period}>{t('picker.per_month')}</span>
      </p>
      <p className={styles.description}>{t(`description.${nameKey}`)}</p>
      <PlanFeatureList quota={sku.quota} label={t('picker.features', { plan: name })} />
      {isPaid && externalLinks.pricing && (
        <a className={styles.allFeatures} href={externalLinks.pricing} target="_blank" rel="noopener noreferrer">
          {t('picker.view_all_features')}
          <ExternalLinkIcon aria-hidden="true" />
          <span className={sharedStyles.visuallyHidden}>{t('new_tab', { ns: 'common' })}</span>
        </a>
      )}
      <div className={styles.action}>
        <Button
          variant={isPaid ? 'primary' : 'default'}
          isLoading={isProcessing}
          disabled={isDisabled}
          aria-label={t('picker.select_plan', { plan: name })}
          aria-describedby={showFreeLimit ? tipId : undefined}
          onClick={onSelect}
        >
          {t('picker.select')}
        </Button>
        {showFreeLimit && (
          <p id={tipId} className={styles.tip}>
            {t('picker.free_limit', { max: MAX_FREE_TENANTS })}
          </p>
        )}
      </div>
    </li>
  );
}
