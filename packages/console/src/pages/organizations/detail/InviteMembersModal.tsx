import { DEFAULT_TENANT_ID as defaultTenantId, invitationMessagePayloadSchema } from '@gatehouse/schemas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useParams } from 'react-router';
import { z } from 'zod';
import { rememberedLink, rememberLink, useInvite } from '../../../api/organization-invitations.ts';
import { useOrganizationPickerLoaders } from '../../../api/organizations.ts';
import { FormSelect } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormEmailChipInput } from '../../../components/form/bound/FormListInputs.tsx';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { Checkbox } from '../../../components/form/Checkbox.tsx';
import type { EmailChip } from '../../../components/form/EmailChipInput.tsx';
import { FormField } from '../../../components/form/FormField.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { Pagination } from '../../../components/Table/Pagination.tsx';
import { SearchBox } from '../../../components/Table/SearchBox.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Organizations.module.css';

const DAY_MS = 24 * 60 * 60 * 1000;
export const expiryDays = ['1', '3', '7', '14', '30'] as const;
const rolePageSize = 8;

/**
 * The invite form: the addresses (chips the chip input checked; each one POST /organization-invitations), how long the
 * invitations stay open (the form's choice, sent as `expiresAt`) and the acceptance link, which is the request's
 * `messagePayload.link`, with its rule (an http(s) URL), or none.
 */
const inviteFormSchema = z.object({
  emails: z.array(z.object({ id: z.string(), value: z.string(), status: z.literal('error').optional() })).min(1),
  expiresInDays: z.enum(expiryDays),
  link: z.string().superRefine((link, context) => {
    if (link && !invitationMessagePayloadSchema.safeParse({ link }).success) {
      context.addIssue({ code: 'custom', message: 'link_invalid' });
    }
  }),
});
type InviteForm = z.input<typeof inviteFormSchema>;

type Props = { organizationId: string; organizationName: string; onClose: () => void };

/**
 * Invite people by email to the organization: addresses as chips, the organization roles they get on acceptance,
 * how long the invitation stays open, and the acceptance link of the email (without one, no email is sent). Each
 * address is its own invitation; those the server refuses stay as error chips, the others leave the field.
 */
export function InviteMembersModal({ organizationId, organizationName, onClose }: Props) {
  const { t, i18n } = useTranslation('organizations');
  const toast = useToast();
  const { tenantId = defaultTenantId } = useParams();
  const invite = useInvite(organizationId);
  const [roleIds, setRoleIds] = useState<ReadonlySet<string>>(new Set());
  const resolver = useMemo(
    () =>
      schemaResolver(inviteFormSchema, (issue) => {
        const key = issue.path[0];
        if (key === 'emails') return t('invitations.errors.emails_required');
        if (key === 'link') return t('invitations.errors.link_invalid');
        return undefined;
      }),
    [t],
  );
  const { control, handleSubmit, formState, setValue, getValues } = useForm<InviteForm>({
    resolver,
    mode: 'onSubmit',
    defaultValues: { emails: [], expiresInDays: '7', link: rememberedLink(tenantId) },
  });

  const onSubmit = handleSubmit(async ({ emails, expiresInDays, link }) => {
    const expiresAt = Date.now() + Number(expiresInDays) * DAY_MS;
    const messagePayload = link ? { link, locale: i18n.resolvedLanguage ?? i18n.language } : undefined;
    const failed: EmailChip[] = [];
    let sent = 0;
    for (const chip of emails) {
      try {
        await invite.mutateAsync({
          invitee: chip.value,
          organizationRoleIds: [...roleIds],
          expiresAt,
          ...(messagePayload ? { messagePayload } : {}),
        });
        sent += 1;
      } catch {
        // The API layer has shown why; the address stays, marked, for a fix or a retry.
        failed.push({ ...chip, status: 'error' });
      }
    }
    rememberLink(tenantId, link);
    if (sent) toast.success(t(link ? 'invitations.sent' : 'invitations.created', { number: sent }));
    if (failed.length) setValue('emails', failed);
    else onClose();
  });

  return (
    <FormModal
      size="medium"
      title={t('invitations.invite_title')}
      description={t('invitations.invite_description', { name: organizationName })}
      submitText={t('invitations.invite_submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={onClose}
    >
      <FormEmailChipInput
        name="emails"
        control={control}
        label={t('invitations.emails')}
        isRequired
        placeholder={t('invitations.emails_placeholder')}
        description={t('invitations.emails_description')}
      />
      <RolePicker organizationId={organizationId} picked={roleIds} onChange={setRoleIds} />
      <FormSelect
        name="expiresInDays"
        control={control}
        label={t('invitations.expires_in')}
        options={expiryDays.map((days) => ({ value: days, label: t(`invitations.expiry_${days}`) }))}
      />
      <FormTextInput
        name="link"
        control={control}
        label={t('invitations.link')}
        type="url"
        placeholder="https://app.example.com/invitations/{invitationId}"
        description={t('invitations.link_description')}
        onBlurCapture={() => setValue('link', getValues('link').trim())}
      />
    </FormModal>
  );
}

/** The User organization roles the invitees get, searched and paged on the server like the roles editor. */
function RolePicker({
  organizationId,
  picked,
  onChange,
}: {
  organizationId: string;
  picked: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
}) {
  const { t } = useTranslation('organizations');
  const loaders = useOrganizationPickerLoaders(organizationId);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const roles = useQuery({
    queryKey: loaders.key('roles', 'User', { search, page, pageSize: rolePageSize }),
    queryFn: ({ signal }) => loaders.roles('User', { search, page, pageSize: rolePageSize }, signal),
    placeholderData: keepPreviousData,
  });
  const items = roles.data?.items ?? [];
  const total = roles.data?.total ?? 0;
  const toggle = (id: string) => {
    const next = new Set(picked);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  };
  return (
    <FormField name="organizationRoleIds" label={t('invitations.roles')} isGroup>
      <div className={styles.form}>
        <SearchBox
          placeholder={t('roles.search')}
          onSearch={(text) => {
            setSearch(text);
            setPage(1);
          }}
        />
        <ul className={styles.checkList} aria-label={t('invitations.roles')} aria-busy={roles.isFetching}>
          {roles.isLoading && (
            <li>
              <Spinner />
            </li>
          )}
          {roles.isSuccess && items.length === 0 && <li className={styles.muted}>{t('roles.none')}</li>}
          {items.map((role) => (
            <li key={role.id}>
              <Checkbox checked={picked.has(role.id)} onChange={() => toggle(role.id)} label={role.name} />
            </li>
          ))}
        </ul>
        {rolePageSize < total && (
          <Pagination page={page} pageSize={rolePageSize} totalCount={total} onPageChange={setPage} />
        )}
      </div>
    </FormField>
  );
}
