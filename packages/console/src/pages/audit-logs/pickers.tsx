import { applicationSchema, userSchema } from '@gatehouse/schemas';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { z } from 'zod';
import { searchApplications } from '../../api/applications.ts';
import { requestJson } from '../../api/client.ts';
import { useManagementApi } from '../../api/management.ts';
import { searchUsers } from '../../api/users.ts';
import type { AdminNames } from '../../components/AuditLog/log-references.ts';
import { useDebouncedCallback } from '../../components/Table/use-debounced-callback.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { Combobox, type ComboboxOption } from './Combobox.tsx';
import { logKeyGroups, matchLogKeys } from './log-keys.ts';

type PickerProps = {
  value: string | undefined;
  onChange: (value: string | undefined) => void;
};

const searchDelayMs = 250;

/** The typed text, debounced, so a server search runs once the user pauses. */
function useSearchText() {
  const [text, setText] = useState('');
  const { schedule, flush } = useDebouncedCallback(setText, searchDelayMs);
  return { text, onQueryChange: (query: string) => (query ? schedule(query) : flush('')) };
}

/** Log key: the spec §3 catalogue, searched as you type, grouped; a key not in it can still be used as typed. */
export function LogKeyPicker({ value, onChange }: PickerProps) {
  const { t } = useTranslation('audit_logs');
  const [query, setQuery] = useState('');
  const groupOrder = new Map(logKeyGroups.map((group, index) => [group, index]));
  const options: ComboboxOption[] = matchLogKeys(query)
    .sort((a, b) => (groupOrder.get(a.group) ?? 0) - (groupOrder.get(b.group) ?? 0))
    .map((entry) => ({ value: entry.key, label: entry.key, group: t(`log_key_groups.${entry.group}`) }));
  return (
    <Combobox
      label={t('filters.log_key')}
      placeholder={t('filters.all_log_keys')}
      selected={value ? { value, label: value } : undefined}
      onSelect={(option) => onChange(option?.value)}
      options={options}
      onQueryChange={setQuery}
      emptyText={t('filters.no_log_key')}
      customOption={(text) => {
        const key = text.trim();
        return /^[\w.-]{1,128}$/.test(key) ? { value: key, label: t('filters.use_key', { key }) } : undefined;
      }}
    />
  );
}

/**
 * User: searched on the server (id, email, phone, username or name); the chosen one shows by name, a console admin
 * (chosen from a shared link: the user search lists the tenant's users only) by the name the console knows.
 */
export function UserPicker({ value, onChange, admins }: PickerProps & { admins?: AdminNames }) {
  const { t } = useTranslation('audit_logs');
  const api = useManagementApi();
  const { tenantId } = useParams();
  const { text, onQueryChange } = useSearchText();
  const found = useQuery({
    queryKey: api.key('users', 'picker', text),
    queryFn: ({ signal }) => searchUsers(tenantId, text, signal),
  });
  const chosen = useChosen('users', value, userSchema);
  const label = (user: { id: string; name: string | null; username: string | null; primaryEmail: string | null }) =>
    user.name || user.username || user.primaryEmail || user.id;
  return (
    <Combobox
      label={t('filters.user')}
      placeholder={t('filters.all_users')}
      selected={value ? { value, label: chosen.data ? label(chosen.data) : (admins?.get(value) ?? value) } : undefined}
      onSelect={(option) => onChange(option?.value)}
      options={(found.data?.items ?? []).map((user) => ({ value: user.id, label: label(user), description: user.id }))}
      onQueryChange={onQueryChange}
      isLoading={found.isPending}
      emptyText={t('filters.no_user')}
      errorText={found.isError ? t('filters.search_failed') : undefined}
    />
  );
}

/** Application: searched on the server by name or id; the chosen one shows by name. */
export function ApplicationPicker({ value, onChange }: PickerProps) {
  const { t } = useTranslation('audit_logs');
  const api = useManagementApi();
  const { tenantId } = useParams();
  const { text, onQueryChange } = useSearchText();
  const found = useQuery({
    queryKey: api.key('applications', 'picker', text),
    queryFn: ({ signal }) => searchApplications(tenantId, text, signal),
  });
  const chosen = useChosen('applications', value, applicationSchema);
  return (
    <Combobox
      label={t('filters.application')}
      placeholder={t('filters.all_applications')}
      selected={value ? { value, label: chosen.data?.name ?? value } : undefined}
      onSelect={(option) => onChange(option?.value)}
      options={(found.data?.items ?? []).map((app) => ({ value: app.id, label: app.name, description: app.id }))}
      onQueryChange={onQueryChange}
      isLoading={found.isPending}
      emptyText={t('filters.no_application')}
      errorText={found.isError ? t('filters.search_failed') : undefined}
    />
  );
}

/** The chosen entity, to show its name; the same cache entry as its detail page, and no request without a choice. */
function useChosen<S extends z.ZodType>(area: 'users' | 'applications', id: string | undefined, schema: S) {
  const api = useManagementApi();
  return useQuery({
    queryKey: api.key(area, 'detail', id),
    queryFn: ({ signal }) => requestJson(api.path(`/${area}/${encodeURIComponent(id ?? '')}`), schema, { signal }),
    enabled: Boolean(id),
    // An id that no longer exists still filters; it shows as the id. A user's miss is `entity.not_found` (issue 43).
    meta: { silenceErrorCodes: ['entity.not_exists_with_id', 'entity.not_found'] },
  });
}
