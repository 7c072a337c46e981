import type { SignInExperience } from '@gatehouse/schemas';
import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useOutletContext } from 'react-router';
import { isFieldPath } from '../../components/form/field-path.ts';
import type { SieForm } from './sie-form.ts';

/** What the tabs read from the page: the one form over the whole experience and the saved experience. */
export type SieOutletContext = {
  form: UseFormReturn<SieForm>;
  saved: SignInExperience;
  /** A field to focus once its tab shows (a refusal on a field of another tab opened that tab). */
  pendingFocus: { current: string | undefined };
};

/** The page's form; a field waiting for focus gets it once the tab that shows it has mounted. */
export function useSieOutlet(): SieOutletContext {
  const context = useOutletContext<SieOutletContext>();
  const { form, pendingFocus } = context;
  useEffect(() => {
    const field = pendingFocus.current;
    if (!field) return;
    pendingFocus.current = undefined;
    try {
      if (isFieldPath(form.getValues(), field)) form.setFocus(field);
    } catch {
      // A field without a focusable element (the sign-in methods list): the tab showing it is enough.
    }
  }, [form, pendingFocus]);
  return context;
}
