import type { Domain, DomainDnsRecord } from '@gatehouse/schemas';
import { useForm } from 'react-hook-form';
import { ApiError } from '../../../api/client.ts';
import { useCreateDomain, useDeleteDomain, useDomains } from '../../../api/domains.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CopyButton } from '../../../components/CopyButton/CopyButton.tsx';
import { classNames } from '../../../components/class-names.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { handleSubmitError, useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { Table, type TableColumn } from '../../../components/Table/Table.tsx';
import { Tag } from '../../../components/Tag/Tag.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from './DomainsTab.module.css';
import { type DomainForm, domainStatusTag, useDomainResolver } from './domain-form.ts';

/**
 * Spec §2.2 tenant-settings 'domains': the tenant's one custom domain. Without one, the add form; with one, its
 * status (spec §4), what the last check found, the DNS records to publish, and deletion. While the domain is not
 * Active the list is fetched every 10 s (the server checks DNS and HTTPS on those reads).
 */
export function DomainsTab() {
  const { t } = useTranslation('domains');
  const domains = useDomains();
  if (domains.isPending) return <Loading />;
  if (domains.isError) {
    return (
      <Card title={t('title')}>
        <div className={styles.stack}>
          <p className={styles.muted}>{t('load_failed')}</p>
          <div>
            <Button onClick={() => domains.refetch()}>{t('retry')}</Button>
          </div>
        </div>
      </Card>
    );
  }
  const [domain] = domains.data;
  return domain ? (
    <DomainDetails domain={domain} isChecking={domains.isFetching} onCheck={() => domains.refetch()} />
  ) : (
    <AddDomain onConflict={() => domains.refetch()} />
  );
}

function AddDomain({ onConflict }: { onConflict: () => Promise<unknown> }) {
  const { t } = useTranslation('domains');
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateDomain();
  const { control, handleSubmit, formState, setError } = useForm<DomainForm>({
    resolver: useDomainResolver(),
    mode: 'onBlur',
    defaultValues: { domain: '' },
  });

  // The server's own words for taken and limit; a reserved name's detail is not localised, so ours.
  const domainServerErrors = {
    codes: {
      'domain.domain_in_use': 'domain',
      'domain.limit_reached': 'domain',
      'guard.invalid_input': { field: 'domain', message: () => t('form.errors.reserved') },
    },
  } as const;

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const created = await create.mutateAsync(values);
        toast.success(t('added', { domain: created.domain }));
      } catch (error) {
        if (!applyServerErrors({ setError }, error, domainServerErrors)) throw error;
        // Someone else added a domain meanwhile: show it.
        if (error instanceof ApiError && error.code === 'domain.limit_reached') await onConflict();
      }
    }),
  );

  return (
    <Card title={t('title')} description={t('description')}>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <FormTextInput
          name="domain"
          control={control}
          label={t('form.domain')}
          description={t('form.hint')}
          placeholder={t('form.placeholder')}
          className={styles.field}
          dir="ltr"
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          isRequired
        />
        <Button type="submit" variant="primary" isLoading={formState.isSubmitting}>
          {t('form.add')}
        </Button>
      </form>
    </Card>
  );
}

function DomainDetails({
  domain,
  isChecking,
  onCheck,
}: {
  domain: Domain;
  isChecking: boolean;
  onCheck: () => Promise<unknown>;
}) {
  const { t } = useTranslation('domains');
  const toast = useToast();
  const confirm = useConfirm();
  const remove = useDeleteDomain();
  const isActive = domain.status === 'Active';

  async function onDelete() {
    const isConfirmed = await confirm({
      title: t('delete_title'),
      content: t('delete_content', { domain: domain.domain }),
      confirmText: t('delete'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await remove.mutateAsync(domain.id);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('deleted', { domain: domain.domain }));
  }

  const copyLabel = (record: DomainDnsRecord, part: 'name' | 'value') =>
    t(`records.copy_${part}`, { type: record.type });
  const columns: TableColumn<DomainDnsRecord>[] = [
    { key: 'type', title: t('records.type'), render: (record) => <code className={styles.code}>{record.type}</code> },
    {
      key: 'name',
      title: t('records.name'),
      render: (record) => (
        <span className={styles.recordValue}>
          <code className={styles.code} dir="ltr">
            {record.name}
          </code>
          <CopyButton value={record.name} label={copyLabel(record, 'name')} />
        </span>
      ),
    },
    {
      key: 'value',
      title: t('records.value'),
      render: (record) => (
        <span className={styles.recordValue}>
          <code className={styles.code} dir="ltr">
            {record.value}
          </code>
          <CopyButton value={record.value} label={copyLabel(record, 'value')} />
        </span>
      ),
    },
  ];

  return (
    <div className={styles.stack}>
      <Card title={t('title')} description={t('description')}>
        <div className={styles.stack}>
          <div className={styles.summary}>
            <div className={styles.domainLine}>
              <p className={styles.domainName} data-testid="domain-name">
                <bdi dir="ltr">{domain.domain}</bdi>
              </p>
              {/* A live region, so a status reached while polling is announced. */}
              <span role="status" data-testid="domain-status">
                <Tag status={domainStatusTag[domain.status]}>{t(`status.${domain.status}`)}</Tag>
              </span>
            </div>
            <div className={styles.actions}>
              {!isActive && (
                <Button onClick={onCheck} isLoading={isChecking}>
                  {t('check_now')}
                </Button>
              )}
              <Button variant="dangerOutline" onClick={onDelete}>
                {t('delete')}
              </Button>
            </div>
          </div>
          <p className={styles.muted}>{t(`status_help.${domain.status}`)}</p>
          {domain.errorMessage && (
            <div className={styles.stack}>
              <p className={styles.muted}>{t('last_check')}</p>
              {/* The server's diagnostic names hosts and records, so it is shown as written (English). */}
              <p
                className={classNames(styles.message, domain.status === 'Error' && styles.messageError)}
                lang="en"
                dir="ltr"
                data-testid="domain-message"
              >
                {domain.errorMessage}
              </p>
            </div>
          )}
          {!isActive && <p className={styles.muted}>{t('auto_refresh')}</p>}
        </div>
      </Card>
      <Card title={t('records.title')} description={t('records.description')}>
        <Table
          aria-label={t('records.title')}
          columns={columns}
          rows={domain.dnsRecords}
          rowKey={(record) => `${record.type} ${record.name}`}
        />
      </Card>
    </div>
  );
}
