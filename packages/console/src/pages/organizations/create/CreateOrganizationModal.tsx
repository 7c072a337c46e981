import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { useCreateOrganization } from '../../../api/organizations.ts';
import { FormTextInput } from '../../../components/form/bound/FormTextInputs.tsx';
import { FormModal } from '../../../components/Modal/FormModal.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toOrganization, toOrganizations } from '../links.ts';
import {
  type CreateOrganizationForm,
  createOrganizationFormSchema,
  useOrganizationFormResolver,
} from '../organization-form.ts';

/** Spec §2.2 organizations/create, a dialog over the list: name and description. Success opens the organization. */
export function CreateOrganizationModal() {
  const { t } = useTranslation('organizations');
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const create = useCreateOrganization();
  const { control, handleSubmit, formState } = useForm<CreateOrganizationForm>({
    resolver: useOrganizationFormResolver(createOrganizationFormSchema),
    mode: 'onBlur',
    defaultValues: { name: '', description: '' },
  });

  // Back to the list with its search as it was.
  const close = () => navigate({ pathname: resolve(toOrganizations()), search: location.search });

  const onSubmit = handleSubmit(
    submitWith(async ({ name, description }) => {
      const organization = await create.mutateAsync({ name, description: description || undefined });
      toast.success(t('create.created', { name: organization.name }));
      await navigate(resolve(toOrganization(organization.id)), { replace: true });
    }),
  );

  return (
    <FormModal
      title={t('create.title')}
      submitText={t('create.submit')}
      isSubmitting={formState.isSubmitting}
      onSubmit={onSubmit}
      onClose={close}
    >
      <FormTextInput
        name="name"
        control={control}
        label={t('fields.name')}
        isRequired
        placeholder={t('create.name_placeholder')}
      />
      <FormTextInput
        name="description"
        control={control}
        label={t('fields.description')}
        placeholder={t('create.description_placeholder')}
      />
    </FormModal>
  );
}
