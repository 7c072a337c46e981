import type { Role } from '@gatehouse/schemas';
import { useState } from 'react';
import { useAssignToRole } from '../../../api/roles.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { PermissionPicker, type PermissionPicks } from '../../../components/PermissionPicker/PermissionPicker.tsx';
import { serverErrorIds } from '../../../components/submit/server-errors.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from './AssignPermissionsModal.module.css';

/** 'Assign permissions' of a role's permissions tab: the picker of the create dialog, for an existing role. */
export function AssignPermissionsModal({ role, onClose }: { role: Role; onClose: () => void }) {
  const { t } = useTranslation('roles');
  const toast = useToast();
  const assign = useAssignToRole(role.id, 'scopes');
  const [picked, setPicked] = useState<PermissionPicks>(new Map());
  const [assigned, setAssigned] = useState<ReadonlyMap<string, string>>(new Map());

  async function submit() {
    try {
      await assign.mutateAsync([...picked.keys()]);
      toast.success(t('permissions.assigned', { number: picked.size }));
      onClose();
    } catch (error) {
      // The API keeps no list of the role's scopes next to the picker; a duplicate is learnt here, then marked.
      const ids = serverErrorIds(error, 'role.scope_exists');
      if (!ids) {
        if (!handleSubmitError(error, toast)) throw error;
        return;
      }
      setAssigned((current) => new Map([...current, ...ids.map((id) => [id, t('picker.already_assigned')] as const)]));
      setPicked((current) => new Map([...current].filter(([id]) => !ids.includes(id))));
    }
  }

  return (
    <Modal
      isOpen
      onClose={onClose}
      title={t('permissions.assign_title')}
      size="large"
      footer={
        <>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button variant="primary" disabled={picked.size === 0} isLoading={assign.isPending} onClick={submit}>
            {t('permissions.assign')}
          </Button>
        </>
      }
    >
      <p className={styles.description}>{t('permissions.assign_description', { name: role.name })}</p>
      {assigned.size > 0 && (
        <p role="alert" className={styles.alert}>
          {t('permissions.some_already_assigned')}
        </p>
      )}
      <PermissionPicker
        roleType={role.type}
        cacheKey={['roles', role.id, 'picker']}
        picked={picked}
        onChange={setPicked}
        unavailable={assigned}
      />
    </Modal>
  );
}
