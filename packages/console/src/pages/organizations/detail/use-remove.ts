import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type OrganizationRelation,
  useRemoveFromOrganization as useRemoveMutation,
} from '../../../api/organizations.ts';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';

/** Removal of a member or an application: a danger confirmation that says what is detached, then a toast. */
export function useRemoveFromOrganization(organizationId: string, relation: OrganizationRelation) {
  const { t } = useTranslation('organizations');
  const confirm = useConfirm();
  const toast = useToast();
  const remove = useRemoveMutation(organizationId, relation);
  return useCallback(
    async (id: string, texts: { title: string; content: string; done: string }) => {
      const isConfirmed = await confirm({
        title: texts.title,
        content: texts.content,
        confirmText: t('remove'),
        isDanger: true,
      });
      if (!isConfirmed) return;
      try {
        await remove.mutateAsync(id);
        toast.success(texts.done);
      } catch (error) {
        if (!handleSubmitError(error, toast)) throw error;
      }
    },
    [confirm, remove, toast, t],
  );
}
