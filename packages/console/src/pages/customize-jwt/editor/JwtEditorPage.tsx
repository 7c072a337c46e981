import type { JwtCustomizerResponse, JwtCustomizerTokenType } from '@gatehouse/schemas';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../../api/client.ts';
import {
  scriptErrorOf,
  useJwtCustomizer,
  useSaveJwtCustomizer,
  useTestJwtCustomizer,
  useUpdateJwtCustomizer,
} from '../../../api/jwt-customizer.ts';
import { BackLink } from '../../../components/BackLink/BackLink.tsx';
import { Button, buttonClassName } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CodeEditor } from '../../../components/CodeEditor/CodeEditor.tsx';
import { useSaveBarSpace } from '../../../components/DetailsForm/save-bar-space.ts';
import { useUnsavedChangesGuard } from '../../../components/DetailsForm/use-unsaved-changes-guard.ts';
import { FormSwitch } from '../../../components/form/bound/FormChoiceInputs.tsx';
import { FormCodeEditor } from '../../../components/form/bound/FormCodeEditor.tsx';
import { schemaResolver } from '../../../components/form/schema-resolver.ts';
import { TrashIcon } from '../../../components/icons.tsx';
import { NotFound } from '../../../components/NotFound/NotFound.tsx';
import { PageHeader } from '../../../components/PageHeader/PageHeader.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Spinner } from '../../../components/Spinner/Spinner.tsx';
import { applyServerErrors } from '../../../components/submit/server-errors.ts';
import { handleSubmitError, useSubmitHandler } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useDocumentTitle } from '../../../components/use-document-title.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../CustomizeJwt.module.css';
import { type EditorAction, isEditorAction, isTokenType, toCustomizeJwt, toJwtEditor } from '../links.ts';
import { useDeleteScript } from '../TokenScriptCards.tsx';
import { EnvironmentVariablesEditor } from './EnvironmentVariablesEditor.tsx';
import {
  editorFormSchema,
  editorWording,
  formPathOf,
  type JwtEditorForm,
  toEditorForm,
  toJwtCustomizer,
  toJwtCustomizerTest,
} from './editor-form.ts';
import { type TestOutcome, TestResultPanel } from './TestResultPanel.tsx';
import { typeDefinitions } from './type-definitions.ts';

/** Spec §2.2 customize-jwt/{tokenType}/{action}: the script editor of one token type, to create or edit its script. */
export function JwtEditorPage() {
  const { tokenType, action } = useParams();
  if (!isTokenType(tokenType) || !isEditorAction(action)) return <NotFound />;
  // Keyed, so saving a new script (create → edit) starts the edit form from what was stored.
  return <EditorFrame key={`${tokenType}/${action}`} tokenType={tokenType} action={action} />;
}

type EditorProps = { tokenType: JwtCustomizerTokenType; action: EditorAction };

function EditorFrame({ tokenType, action }: EditorProps) {
  const { t } = useTranslation('customize_jwt');
  const resolve = useTenantPath();
  const saved = useJwtCustomizer(tokenType, { enabled: action === 'edit' });
  const title = t(`token_types.${tokenType}.title`);
  useDocumentTitle(title);
  const back = <BackLink to={resolve(toCustomizeJwt())}>{t('editor.back')}</BackLink>;
  if (action === 'create') return <EditorForm tokenType={tokenType} action={action} back={back} />;
  if (saved.isPending) {
    return (
      <div className={styles.page}>
        {back}
        <p role="status" className={styles.muted}>
          <Spinner /> {t('editor.loading')}
        </p>
      </div>
    );
  }
  if (saved.isError) {
    const isMissing = saved.error instanceof ApiError && saved.error.status === 404;
    return (
      <div className={styles.page}>
        {back}
        <section className={styles.state} aria-live="polite">
          <h1 className={styles.stateTitle}>{t(isMissing ? 'editor.not_found' : 'editor.load_failed')}</h1>
          {isMissing ? (
            <Link to={resolve(toJwtEditor(tokenType, 'create'))}>{t('index.add')}</Link>
          ) : (
            <Button onClick={() => void saved.refetch()}>{t('index.retry')}</Button>
          )}
        </section>
      </div>
    );
  }
  return <EditorForm tokenType={tokenType} action={action} back={back} saved={saved.data} />;
}

function EditorForm({
  tokenType,
  action,
  back,
  saved,
}: EditorProps & { back: ReactNode; saved?: JwtCustomizerResponse }) {
  const { t } = useTranslation('customize_jwt');
  const toast = useToast();
  const navigate = useNavigate();
  const resolve = useTenantPath();
  const submitWith = useSubmitHandler();
  const savedNames = useMemo(() => new Set(Object.keys(saved?.environmentVariables ?? {})), [saved]);
  const form = useForm<JwtEditorForm>({
    resolver: useMemo(
      () => schemaResolver<JwtEditorForm>(editorFormSchema(savedNames), editorWording(t), { raw: true }),
      [savedNames, t],
    ),
    mode: 'onBlur',
    defaultValues: toEditorForm(tokenType, saved),
  });
  const { control, handleSubmit, reset, formState } = form;
  const put = useSaveJwtCustomizer(tokenType);
  const patch = useUpdateJwtCustomizer(tokenType);
  const test = useTestJwtCustomizer();
  const [outcome, setOutcome] = useState<TestOutcome>();
  // Set once the page is done (saved as new, deleted): the guard then lets it go.
  const [leaveTo, setLeaveTo] = useState<string>();
  useUnsavedChangesGuard(formState.isDirty && !formState.isSubmitting && !leaveTo);
  // Its save bar is always there, stuck to the bottom: what is scrolled into view stops above it (issue 40, item 8).
  const saveBar = useRef<HTMLDivElement>(null);
  useSaveBarSpace(saveBar, true);
  useEffect(() => {
    if (leaveTo) void navigate(leaveTo, { replace: true });
  }, [leaveTo, navigate]);
  const remove = useDeleteScript(tokenType, () => setLeaveTo(resolve(toCustomizeJwt())));
  const title = t(`token_types.${tokenType}.title`);

  async function runTest() {
    // Bad JSON or a bad variable shows on its field and nothing is sent.
    if (!(await form.trigger(undefined, { shouldFocus: true }))) return;
    try {
      setOutcome({ kind: 'result', result: await test.mutateAsync(toJwtCustomizerTest(tokenType, form.getValues())) });
    } catch (error) {
      const scriptError = scriptErrorOf(error);
      if (scriptError) {
        setOutcome({ kind: 'error', error: scriptError });
        return;
      }
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
  }

  const onSubmit = handleSubmit(
    submitWith(async (values) => {
      try {
        const body = toJwtCustomizer(values);
        const stored = action === 'create' ? await put.mutateAsync(body) : await patch.mutateAsync(body);
        reset(toEditorForm(tokenType, stored));
      } catch (error) {
        if (applyServerErrors(form, error, { paths: formPathOf })) return;
        throw error;
      }
      toast.success(t('editor.saved', { title }));
      if (action === 'create') setLeaveTo(resolve(toJwtEditor(tokenType, 'edit')));
    }),
  );

  return (
    <div className={styles.page}>
      {back}
      <PageHeader
        title={title}
        subtitle={t(`token_types.${tokenType}.description`)}
        actions={
          action === 'edit' && (
            <Button variant="dangerOutline" icon={<TrashIcon />} onClick={remove}>
              {t('index.delete')}
            </Button>
          )
        }
      />
      <form className={styles.editorForm} onSubmit={onSubmit} noValidate aria-label={t('editor.form', { title })}>
        <div className={styles.editorGrid}>
          <div className={styles.column}>
            <Card title={t('script.title')} description={t('script.description')}>
              <FormCodeEditor
                name="script"
                control={control}
                label={t('script.label')}
                language="javascript"
                minLines={18}
                isRequired
              />
            </Card>
            <Card
              title={t('test.title')}
              description={t('test.description')}
              actions={<Button onClick={runTest}>{t('test.run')}</Button>}
            >
              <div aria-live="polite">
                {outcome ? <TestResultPanel outcome={outcome} /> : <p className={styles.muted}>{t('test.none')}</p>}
              </div>
            </Card>
          </div>
          <div className={styles.column}>
            <Card title={t('samples.title')} description={t('samples.description')}>
              <div className={styles.samples}>
                <FormCodeEditor name="tokenSample" control={control} label={t('samples.token')} language="json" />
                <FormCodeEditor
                  name="contextSample"
                  control={control}
                  label={t('samples.context')}
                  description={t(`samples.context_${tokenType}`)}
                  language="json"
                />
              </div>
            </Card>
            <Card title={t('variables.title')} description={t('variables.description')}>
              <EnvironmentVariablesEditor control={control} />
            </Card>
            <Card title={t('settings.title')}>
              <FormSwitch
                name="blockIssuanceOnError"
                control={control}
                label={t('settings.block')}
                description={t('settings.block_description')}
              />
            </Card>
            <Card title={t('reference.title')} description={t('reference.description')}>
              <CodeEditor
                value={typeDefinitions[tokenType]}
                language="typescript"
                isReadOnly
                aria-label={t('reference.title')}
                className={styles.reference}
              />
            </Card>
          </div>
        </div>
        <div ref={saveBar} className={styles.saveBar}>
          {formState.isDirty && <p className={styles.muted}>{t('editor.unsaved')}</p>}
          <Link to={resolve(toCustomizeJwt())} className={buttonClassName('default')}>
            {t('editor.cancel')}
          </Link>
          <Button type="submit" variant="primary" isLoading={formState.isSubmitting}>
            {t(action === 'create' ? 'editor.create' : 'editor.save')}
          </Button>
        </div>
      </form>
    </div>
  );
}
