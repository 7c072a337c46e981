import { useUpdateConnector } from '../../../api/connectors.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { DetailsForm } from '../../../components/DetailsForm/DetailsForm.tsx';
import { useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Connectors.module.css';
import { ConfigFields } from '../form/ConfigFields.tsx';
import { configToForm } from '../form/config-form.ts';
import { useConfigForm } from '../form/use-config-form.tsx';
import { SocialRedirectUri } from '../SocialRedirectUri.tsx';
import { useConnectorOutlet } from './connector-context.ts';

/**
 * Spec §2.2 connector tab 'connection': the config drawn from the factory's form items, saved with the save bar.
 * Secrets show masked and go back masked unless retyped, which keeps the stored value; a test send uses the form as
 * it is now. A social connector shows its redirect URI instead of a test send.
 */
export function ConnectionTab() {
  const { t } = useTranslation('connectors');
  const { connector } = useConnectorOutlet();
  const toast = useToast();
  const submitWith = useSubmitHandler();
  const update = useUpdateConnector(connector.id);
  const { form, toConfig, placeServerErrors, openTest, testDialog, retyping, secretHint } = useConfigForm(
    { factoryId: connector.connectorId, type: connector.type, formItems: connector.formItems },
    connector.config,
  );
  const { control, handleSubmit, reset, formState } = form;
  const isSocial = connector.type === 'Social';

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const saved = await update.mutateAsync({ config: toConfig(values) });
        reset(configToForm(saved.formItems, saved.config));
        toast.success(t('connection.saved'));
      } catch (error) {
        if (!placeServerErrors(error)) throw error;
      }
    }),
  );

  return (
    <DetailsForm
      isDirty={formState.isDirty}
      isSubmitting={formState.isSubmitting}
      onDiscard={() => reset()}
      onSubmit={onSubmit}
    >
      <div className={styles.cards}>
        <Card
          title={t('connection.settings')}
          description={t('connection.description')}
          // The server sends no test for a social connector (connector.unexpected_type).
          actions={isSocial ? undefined : <Button onClick={() => openTest()}>{t('test.open')}</Button>}
        >
          {isSocial && <SocialRedirectUri connectorId={connector.id} />}
          <ConfigFields
            formItems={connector.formItems}
            type={connector.type}
            control={control}
            retype={{ fields: retyping, hint: secretHint }}
          />
        </Card>
      </div>
      {testDialog}
    </DetailsForm>
  );
}
