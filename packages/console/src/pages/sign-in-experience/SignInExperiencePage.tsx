import type { SignInExperience } from '@gatehouse/schemas';
import { useCallback, useMemo, useRef } from 'react';
import { type FieldErrors, useForm } from 'react-hook-form';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useSignInExperience, useUpdateSignInExperience } from '../../api/sign-in-experience.ts';
import { Button } from '../../components/Button/Button.tsx';
import { DetailsForm } from '../../components/DetailsForm/DetailsForm.tsx';
import { isFieldPath } from '../../components/form/field-path.ts';
import { schemaResolver } from '../../components/form/schema-resolver.ts';
import { Loading } from '../../components/Loading.tsx';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../components/routing/tenant-path.ts';
import { applyServerErrors, serverFieldErrors } from '../../components/submit/server-errors.ts';
import { useSubmitHandler } from '../../components/submit/use-submit-handler.ts';
import { Tabs } from '../../components/Tabs/Tabs.tsx';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { toSignInExperience } from './links.ts';
import { PreviewPanel } from './preview/PreviewPanel.tsx';
import styles from './SignInExperience.module.css';
import type { SieOutletContext } from './sie-context.ts';
import {
  formToPatch,
  type SieForm,
  sieFormSchema,
  sieServerErrors,
  sieTabs,
  sieToForm,
  sieWording,
  tabOfField,
} from './sie-form.ts';

/** Spec §2.2 sign-in-experience: the header, the four tabs over one form, and the live preview beside them. */
export function SignInExperiencePage() {
  const { t } = useTranslation('sign_in_experience');
  useDocumentTitle(t('title'));
  const query = useSignInExperience();
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      {query.isPending ? (
        <Loading />
      ) : query.data ? (
        <SignInExperienceEditor saved={query.data} />
      ) : (
        <section className={styles.state} aria-live="polite">
          <p>{t('load_failed')}</p>
          <Button onClick={() => query.refetch()}>{t('retry')}</Button>
        </section>
      )}
    </div>
  );
}

/** The first field (in the form's order) that has an error. */
function firstErrorPath(errors: FieldErrors, prefix = ''): string | undefined {
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if ('message' in value && typeof value.message === 'string') return path;
    const inner = firstErrorPath(value as FieldErrors, path);
    if (inner) return inner;
  }
  return undefined;
}

function SignInExperienceEditor({ saved }: { saved: SignInExperience }) {
  const { t } = useTranslation('sign_in_experience');
  const toast = useToast();
  const resolve = useTenantPath();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  // Read when a refusal arrives, not when the save began: the user may have changed tabs meanwhile, and a handler
  // kept by the save bar may come from an earlier render.
  const currentPath = useRef(pathname);
  currentPath.current = pathname;
  const submitWith = useSubmitHandler();
  const update = useUpdateSignInExperience();
  const pendingFocus = useRef<string | undefined>(undefined);
  const resolver = useMemo(() => schemaResolver<SieForm>(sieFormSchema, sieWording(t), { raw: true }), [t]);
  const form = useForm<SieForm>({ resolver, mode: 'onBlur', defaultValues: sieToForm(saved) });
  const { handleSubmit, reset, formState } = form;
  const areaPath = resolve(toSignInExperience());

  /** A refused field may be on another tab: open that tab, then focus the field. */
  const showField = useCallback(
    (field: string | undefined) => {
      if (!field) return;
      const tabPath = resolve(toSignInExperience(tabOfField(field)));
      if (currentPath.current === tabPath) {
        try {
          if (isFieldPath(form.getValues(), field)) form.setFocus(field);
        } catch {
          // Not focusable (a list): its message is on screen.
        }
        return;
      }
      pendingFocus.current = field;
      void navigate(tabPath);
    },
    [form, navigate, resolve],
  );

  const onSubmit = handleSubmit(
    submitWith(async (values: SieForm) => {
      try {
        const next = await update.mutateAsync(formToPatch(values, saved));
        reset(sieToForm(next));
        toast.success(t('saved'));
      } catch (error) {
        if (!applyServerErrors(form, error, sieServerErrors)) throw error;
        showField(serverFieldErrors(error, sieServerErrors)[0]?.field);
      }
    }),
    (errors) => showField(firstErrorPath(errors)),
  );

  const context: SieOutletContext = { form, saved, pendingFocus };
  return (
    <>
      <Tabs
        aria-label={t('tabs_label')}
        items={sieTabs.map((tab) => ({ to: resolve(toSignInExperience(tab)), label: t(`tabs.${tab}`) }))}
      />
      <div className={styles.layout}>
        <DetailsForm
          className={styles.form}
          isDirty={formState.isDirty}
          isSubmitting={formState.isSubmitting}
          onDiscard={() => reset()}
          onSubmit={onSubmit}
          staysOnPage={(pathname) => pathname.startsWith(`${areaPath}/`)}
        >
          <Outlet context={context} />
        </DetailsForm>
        <PreviewPanel control={form.control} saved={saved} />
      </div>
    </>
  );
}
