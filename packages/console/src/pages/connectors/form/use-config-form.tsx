import type { ConnectorFormItem, ConnectorType } from '@gatehouse/schemas';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { connectorConfigErrorCode } from '../../../api/connectors.ts';
import { noFields, useMaskedSecretGuard } from '../../../components/form/masked-secrets.ts';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import {
  type ConfigForm,
  configFormSchema,
  configToForm,
  configWording,
  formPathOf,
  formToConfig,
  secretBindingOf,
} from './config-form.ts';
import { TestDialog } from './TestDialog.tsx';

type Source = { factoryId: string; type: ConnectorType; formItems: readonly ConnectorFormItem[] };

/**
 * The generic config form of a factory (create) or a connector (edit): react-hook-form over the shared rules, the
 * config it sends, the server's field refusals placed on their fields, and the test-send dialog fed with the config
 * as typed now. A masked secret is emptied when its host or endpoint changes, to be entered again (`retyping`, with
 * its `secretHint` under it): a stored secret is never sent to a new destination.
 */
export function useConfigForm(source: Source, config: Record<string, unknown>) {
  const { t } = useTranslation('connectors');
  const [retyping, setRetyping] = useState(noFields);
  const { formItems, type } = source;
  const resolver = useMemo(
    () => schemaResolver<ConfigForm>(configFormSchema(formItems, type, retyping), configWording(t), { raw: true }),
    [formItems, type, retyping, t],
  );
  const form = useForm<ConfigForm>({
    resolver,
    mode: 'onBlur',
    defaultValues: configToForm(source.formItems, config),
  });
  const binding = useMemo(() => secretBindingOf(source.formItems), [source.formItems]);
  const { hint: secretHint, issueMessages } = useMaskedSecretGuard(form, binding, setRetyping);
  const [testConfig, setTestConfig] = useState<Record<string, unknown> | undefined>();

  /** The config to send: only called with values the resolver passed. */
  const toConfig = (values: ConfigForm) => formToConfig(source.formItems, source.type, values).config;

  /** A refusal of the config goes onto its fields; false for anything else (rethrow it). */
  const placeServerErrors = (error: unknown) =>
    applyServerErrors(form, error, { paths: formPathOf, listCodes: [connectorConfigErrorCode], issueMessages });

  /** Checks the form (the fields show their problems) and opens the dialog with the config it holds. */
  const openTest = form.handleSubmit((values) => setTestConfig(toConfig(values)));

  const testDialog = testConfig && (
    <TestDialog
      factoryId={source.factoryId}
      type={source.type}
      config={testConfig}
      onClose={() => setTestConfig(undefined)}
    />
  );
  return { form, toConfig, placeServerErrors, openTest, testDialog, retyping, secretHint };
}
