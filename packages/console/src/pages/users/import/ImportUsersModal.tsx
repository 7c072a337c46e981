import {
  USER_IMPORT_MAX_ERRORS,
  type UserImportError,
  type UserImportField,
  userImportFields,
} from '@gatehouse/schemas';
import { type ChangeEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useStartUserImport, useUserImportJob } from '../../../api/user-imports.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Checkbox } from '../../../components/form/Checkbox.tsx';
import { FormField } from '../../../components/form/FormField.tsx';
import { useFieldControlProps } from '../../../components/form/field-context.ts';
import { Select } from '../../../components/form/Select.tsx';
import { Modal } from '../../../components/Modal/Modal.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { Table } from '../../../components/Table/Table.tsx';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import { toUsers } from '../links.ts';
import styles from './ImportUsers.module.css';
import { csvHeader, type ImportFile, importFormatOf, initialMapping, jsonColumns } from './import-file.ts';

type Mapping = Record<string, UserImportField | ''>;

/**
 * Users → Import: choose a CSV or JSON file, map its columns to user fields (guessed from their names), optionally
 * only check it (dry run), then watch the server-side job's progress and read its per-row errors. A dry run that
 * found no error can be imported at once.
 */
export function ImportUsersModal() {
  const { t } = useTranslation('users');
  const navigate = useNavigate();
  const location = useLocation();
  const resolve = useTenantPath();
  const toast = useToast();
  const [file, setFile] = useState<ImportFile>();
  const [fileError, setFileError] = useState<string>();
  const [mapping, setMapping] = useState<Mapping>({});
  const [dryRun, setDryRun] = useState(false);
  const [jobId, setJobId] = useState<string>();
  const start = useStartUserImport();
  const job = useUserImportJob(jobId);

  const close = () => navigate({ pathname: resolve(toUsers()), search: location.search });

  async function chooseFile(event: ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0];
    setFile(undefined);
    setFileError(undefined);
    if (!chosen) return;
    const text = await chosen.text();
    const format = importFormatOf(chosen.name, text);
    const columns = format === 'csv' ? csvHeader(text) : jsonColumns(text);
    if (!columns?.length) {
      setFileError(format === 'csv' ? t('import.no_header') : t('import.not_json_array'));
      return;
    }
    setFile({ name: chosen.name, text, format, columns });
    setMapping(initialMapping(columns));
  }

  const mapped = Object.fromEntries(Object.entries(mapping).filter(([, field]) => field !== '')) as Record<
    string,
    UserImportField
  >;
  const canStart = file !== undefined && Object.keys(mapped).length > 0;

  async function run(asDryRun: boolean) {
    if (!file) return;
    try {
      const queued = await start.mutateAsync({
        format: file.format,
        source: file.text,
        mapping: mapped,
        dryRun: asDryRun,
      });
      setJobId(queued.id);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    }
  }

  const current = job.data;
  const isDone = current?.status === 'succeeded' || current?.status === 'failed';
  const fieldOptions = [
    { value: '', label: t('import.skip_column') },
    ...userImportFields.map((field) => ({ value: field, label: t(`import.fields.${field}`) })),
  ];

  const footer = jobId ? (
    <>
      {isDone && current?.dryRun && current.failed === 0 && (
        <Button variant="primary" onClick={() => run(false)} isLoading={start.isPending}>
          {t('import.import_now')}
        </Button>
      )}
      <Button onClick={close}>{t('import.close')}</Button>
    </>
  ) : (
    <>
      <Button onClick={close}>{t('import.cancel')}</Button>
      <Button variant="primary" disabled={!canStart} isLoading={start.isPending} onClick={() => run(dryRun)}>
        {dryRun ? t('import.check') : t('import.start')}
      </Button>
    </>
  );

  return (
    <Modal isOpen title={t('import.title')} size="large" onClose={close} footer={footer}>
      {!jobId && (
        <div className={styles.stack}>
          <p className={styles.muted}>{t('import.description')}</p>
          <FormField name="file" label={t('import.file')} error={fileError} description={t('import.file_hint')}>
            <FileInput onChange={(event) => void chooseFile(event)} />
          </FormField>
          {file && (
            <>
              <p className={styles.muted}>
                {t('import.detected', {
                  name: file.name,
                  format: file.format.toUpperCase(),
                  columns: file.columns.length,
                })}
              </p>
              <table className={styles.mapping}>
                <caption className={styles.caption}>{t('import.mapping')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('import.column')}</th>
                    <th scope="col">{t('import.field')}</th>
                  </tr>
                </thead>
                <tbody>
                  {file.columns.map((column) => (
                    <tr key={column}>
                      <th scope="row" className={styles.column} dir="auto">
                        {column}
                      </th>
                      <td>
                        <Select
                          aria-label={t('import.field_for', { column })}
                          value={mapping[column] ?? ''}
                          options={fieldOptions}
                          onChange={(event) =>
                            setMapping({ ...mapping, [column]: event.target.value as UserImportField | '' })
                          }
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {!canStart && <p className={styles.muted}>{t('import.nothing_mapped')}</p>}
              <Checkbox
                label={t('import.dry_run')}
                checked={dryRun}
                onChange={(event) => setDryRun(event.target.checked)}
              />
            </>
          )}
        </div>
      )}
      {jobId && <ImportProgress job={current} />}
    </Modal>
  );
}

function ImportProgress({ job }: { job: ReturnType<typeof useUserImportJob>['data'] }) {
  const { t } = useTranslation('users');
  if (!job) return <p className={styles.muted}>{t('import.queued')}</p>;
  const isDone = job.status === 'succeeded' || job.status === 'failed';
  // The field's name as the mapping showed it; a nested path (customData.x) or none as it is.
  const fieldLabel = (field: string) =>
    (userImportFields as readonly string[]).includes(field)
      ? t(`import.fields.${field as UserImportField}`)
      : field || '—';
  const errors = job.errors ?? [];
  return (
    <div className={styles.stack}>
      <progress
        className={styles.progress}
        aria-label={t('import.progress')}
        value={job.processed}
        max={Math.max(job.total, 1)}
      />
      <p aria-live="polite">
        {isDone
          ? job.status === 'failed'
            ? t('import.failed')
            : job.dryRun
              ? t('import.checked')
              : t('import.done')
          : t('import.rows_done', { processed: job.processed, total: job.total })}
      </p>
      {isDone && (
        <dl className={styles.summary}>
          {(['created', 'updated', 'unchanged', 'failed'] as const).map((counter) => (
            <div key={counter}>
              <dt>{t(job.dryRun ? `import.would.${counter}` : `import.counters.${counter}`)}</dt>
              <dd data-testid={`import-${counter}`}>{job[counter]}</dd>
            </div>
          ))}
        </dl>
      )}
      {errors.length > 0 && (
        <Table<UserImportError>
          aria-label={t('import.errors')}
          columns={[
            { key: 'line', title: t('import.line'), render: (error) => error.line || '—' },
            { key: 'field', title: t('import.field'), render: (error) => fieldLabel(error.field) },
            { key: 'message', title: t('import.message'), render: (error) => error.message },
          ]}
          rows={errors}
          rowKey={(error) => `${error.line}:${error.field}:${error.code}:${error.message}`}
        />
      )}
      {errors.length >= USER_IMPORT_MAX_ERRORS && (
        <p className={styles.muted}>{t('import.more_errors', { failed: job.failed })}</p>
      )}
    </div>
  );
}

/** The file picker, wired to its FormField (label, hint and error) like the kit's controls. */
function FileInput({ onChange }: { onChange: (event: ChangeEvent<HTMLInputElement>) => void }) {
  const field = useFieldControlProps({});
  return (
    <input
      type="file"
      accept=".csv,.json,text/csv,application/json"
      className={styles.file}
      onChange={onChange}
      data-autofocus
      {...field}
    />
  );
}
