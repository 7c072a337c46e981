import type { Invoice, InvoiceStatus } from '@gatehouse/schemas';
import { useInvoices } from '../../../api/billing.ts';
import { formatBillingPeriod, formatMoney } from '../../../cloud/billing-format.ts';
import { planLabel } from '../../../cloud/checkout/plan-name.ts';
import { useTenants } from '../../../cloud/tenants/TenantsProvider.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { Tag, type TagStatus } from '../../../components/Tag/Tag.tsx';
import { useTranslation } from '../../../i18n/react.tsx';

const statusTag: Record<InvoiceStatus, TagStatus> = {
  paid: 'success',
  open: 'warning',
  uncollectible: 'error',
  draft: 'neutral',
  void: 'neutral',
};

/** Spec §2.2 billing history (tenant managers of non-development tenants): the tenant's invoices, newest first. */
export function BillingHistoryTab() {
  const { t, i18n } = useTranslation(['subscription', 'quota', 'tenants']);
  const { currentTenantId } = useTenants();
  const invoices = useInvoices(currentTenantId);
  const language = i18n.language;

  const columns: TableColumn<Invoice>[] = [
    {
      key: 'period',
      title: t('invoices.period'),
      render: (invoice) => formatBillingPeriod(invoice.periodStart, invoice.periodEnd, language),
    },
    { key: 'plan', title: t('invoices.plan'), render: (invoice) => t(`tenants:plan.${planLabel(invoice.planId)}`) },
    {
      key: 'amount',
      title: t('invoices.amount'),
      // A paid invoice shows what was paid; any other what is (or was) due.
      render: (invoice) => formatMoney(invoice.status === 'paid' ? invoice.amountPaid : invoice.amountDue, language),
    },
    {
      key: 'status',
      title: t('invoices.status'),
      render: (invoice) => <Tag status={statusTag[invoice.status]}>{t(`invoice_status.${invoice.status}`)}</Tag>,
    },
  ];

  return (
    <Card title={t('invoices.title')} description={t('invoices.description')}>
      <Table
        aria-label={t('invoices.title')}
        columns={columns}
        rows={invoices.data}
        rowKey={(invoice) => invoice.id}
        isLoading={invoices.isLoading}
        error={invoices.error}
        onRetry={() => invoices.refetch()}
        empty={t('invoices.empty')}
      />
    </Card>
  );
}
