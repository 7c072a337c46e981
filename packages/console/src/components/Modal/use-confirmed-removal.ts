import { useCallback } from 'react';
import { handleSubmitError } from '../submit/use-submit-handler.ts';
import { useToast } from '../Toast/ToastProvider.tsx';
import { useConfirm } from './confirm-context.ts';

/** What the confirmation and the toast say: what is detached from what, the button, and what was done. */
export type RemovalTexts = { title: string; content: string; confirmText: string; done: string };

/**
 * Removal of one row of a relation (a role's user, an organization's member): a danger confirmation that says what is
 * detached, then `remove(id)` and a success toast; a refused removal is handled as any failed save (spec §8).
 */
export function useConfirmedRemoval(remove: (id: string) => Promise<unknown>) {
  const confirm = useConfirm();
  const toast = useToast();
  return useCallback(
    async (id: string, { title, content, confirmText, done }: RemovalTexts) => {
      if (!(await confirm({ title, content, confirmText, isDanger: true }))) return;
      try {
        await remove(id);
        toast.success(done);
      } catch (error) {
        if (!handleSubmitError(error, toast)) throw error;
      }
    },
    [confirm, remove, toast],
  );
}
