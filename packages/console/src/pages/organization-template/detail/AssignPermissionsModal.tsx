import type { OrganizationRole } from '@gatehouse/schemas';
import { useState } from 'react';
import { useAssignToOrganizationRole } from '../../../api/organization-template.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { PermissionFieldset } from '../../../components/PermissionPicker/PermissionFieldset.tsx';
import { PermissionPicker, type PermissionPicks } from '../../../components/PermissionPicker/PermissionPicker.tsx';
import { serverErrorIds } from '../../../components/submit/server-errors.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { OrganizationScopePicker, type OrganizationScopePicks } from '../OrganizationScopePicker.tsx';
import styles from '../OrganizationTemplate.module.css';

type Marks = ReadonlyMap<string, string>;

/** 'Assign permissions' of a role's permissions tab: both pickers of the create dialog, for an existing role. */
export function AssignPermissionsModal({ role, onClose }: { role: OrganizationRole; onClose: () => void }) {
  const { t } = useTranslation('organization_template');
  const toast = useToast();
  const assignOrganization = useAssignToOrganizationRole(role.id, 'scopes');
  const assignApi = useAssignToOrganizationRole(role.id, 'resource-scopes');
  const [organizationPicks, setOrganizationPicks] = useState<OrganizationScopePicks>(new Map());
  const [apiPicks, setApiPicks] = useState<PermissionPicks>(new Map());
  const [organizationAssigned, setOrganizationAssigned] = useState<Marks>(new Map());
  const [apiAssigned, setApiAssigned] = useState<Marks>(new Map());
  const [isSubmitting, setSubmitting] = useState(false);
  const total = organizationPicks.size + apiPicks.size;

  /** One kind's request; a 422 naming permissions already held marks them and drops them from the picks. */
  async function send(
    ids: string[],
    assign: (ids: string[]) => Promise<void>,
    code: string,
    mark: (ids: string[]) => void,
  ): Promise<'done' | 'marked' | 'failed'> {
    if (!ids.length) return 'done';
    try {
      await assign(ids);
      return 'done';
    } catch (error) {
      const assigned = serverErrorIds(error, code);
      if (assigned) {
        mark(assigned);
        return 'marked';
      }
      if (!handleSubmitError(error, toast)) throw error;
      return 'failed';
    }
  }

  async function submit() {
    setSubmitting(true);
    try {
      const label = t('scope_picker.already_assigned');
      const organization = await send(
        [...organizationPicks.keys()],
        (ids) => assignOrganization.mutateAsync(ids),
        'organization_role.scope_exists',
        (ids) => {
          setOrganizationAssigned((current) => new Map([...current, ...ids.map((id) => [id, label] as const)]));
          setOrganizationPicks((current) => new Map([...current].filter(([id]) => !ids.includes(id))));
        },
      );
      // What was assigned leaves the picks, so a second try sends only the rest.
      if (organization === 'done') setOrganizationPicks(new Map());
      const api = await send(
        [...apiPicks.keys()],
        (ids) => assignApi.mutateAsync(ids),
        'organization_role.resource_scope_exists',
        (ids) => {
          setApiAssigned((current) => new Map([...current, ...ids.map((id) => [id, label] as const)]));
          setApiPicks((current) => new Map([...current].filter(([id]) => !ids.includes(id))));
        },
      );
      if (api === 'done') setApiPicks(new Map());
      if (organization === 'done' && api === 'done') {
        toast.success(t('detail.assigned', { number: total }));
        onClose();
      }
    } finally {
      setSubmitting(false);
    }
  }

  const hasMarks = organizationAssigned.size + apiAssigned.size > 0;
  return (
    <Modal
      isOpen
      onClose={onClose}
      title={t('detail.assign_title')}
      size="large"
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button variant="primary" disabled={total === 0} isLoading={isSubmitting} onClick={submit}>
            {t('detail.assign_submit')}
          </Button>
        </>
      }
    >
      <div className={styles.form}>
        <p className={styles.hint}>{t('detail.assign_description', { name: role.name })}</p>
        {hasMarks && (
          <p role="alert" className={styles.alert}>
            {t('detail.some_already_assigned')}
          </p>
        )}
        <PermissionFieldset legend={t('create_role.organization_permissions')}>
          <OrganizationScopePicker
            picked={organizationPicks}
            onChange={setOrganizationPicks}
            unavailable={organizationAssigned}
          />
        </PermissionFieldset>
        <PermissionFieldset legend={t('create_role.api_permissions')}>
          <PermissionPicker
            roleType={role.type}
            cacheKey={['organization-roles', role.id, 'picker']}
            picked={apiPicks}
            onChange={setApiPicks}
            unavailable={apiAssigned}
          />
        </PermissionFieldset>
      </div>
    </Modal>
  );
}
