import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../../i18n/react.tsx';
import { Button } from '../Button/Button.tsx';
import { classNames } from '../class-names.ts';
import { useFieldControlProps } from '../form/field-context.ts';
import { TrashIcon, UploadIcon } from '../icons.tsx';
import { Spinner } from '../Spinner/Spinner.tsx';
import shared from '../shared.module.css';
import {
  allowedExtensions,
  checkFiles,
  type FileProblem,
  formatFileSize,
  imageMimeTypes,
  uploadSizeCapBytes,
} from './file-rules.ts';
import styles from './ImageUploader.module.css';

export type ImageUploaderProps = {
  /** Sends the file; must honour the signal so 'cancel' and unmounting stop the request. */
  upload: (file: File, signal: AbortSignal) => Promise<{ url: string }>;
  onUploaded: (url: string) => void;
  /** The current image, shown as a preview with a remove button when onRemove is given. */
  value?: string | null;
  onRemove?: () => void;
  /** Capped by the global 20 MB limit. */
  maxBytes?: number;
  mimeTypes?: readonly string[];
  disabled?: boolean;
};

type State = { status: 'idle'; error?: string } | { status: 'uploading' };

/** Spec §4/§5: idle → uploading → idle with the new URL or an error; a cancelled upload shows no error. */
export function ImageUploader({
  upload,
  onUploaded,
  value,
  onRemove,
  maxBytes = Number.POSITIVE_INFINITY,
  mimeTypes = imageMimeTypes,
  disabled = false,
}: ImageUploaderProps) {
  const { t, i18n } = useTranslation(['components_extra', 'components']);
  const [state, setState] = useState<State>({ status: 'idle' });
  const [isDragOver, setDragOver] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const abortRef = useRef<AbortController>(undefined);
  const hintId = useId();
  const errorId = useId();
  const error = state.status === 'idle' ? state.error : undefined;
  // The Browse button stands for the field: it takes the label, descriptions and test id, but not aria-invalid or
  // aria-required, which buttons do not support (the error text is announced as an alert instead).
  const {
    'aria-invalid': _invalid,
    'aria-required': _required,
    ...field
  } = useFieldControlProps({
    'aria-describedby': [hintId, error && errorId].filter(Boolean).join(' '),
  });

  useEffect(() => () => abortRef.current?.abort(), []);

  const limit = formatFileSize(Math.min(maxBytes, uploadSizeCapBytes), i18n.language);
  const types = new Intl.ListFormat(i18n.language, { style: 'short', type: 'unit' }).format(
    allowedExtensions(mimeTypes),
  );

  function describe(problem: FileProblem): string {
    if (problem.key === 'error_file_count') return t('image_uploader.error_file_count');
    if (problem.key === 'error_file_type') return t('image_uploader.error_file_type', { types });
    return t('image_uploader.error_file_size', { limit: formatFileSize(problem.limitBytes, i18n.language) });
  }

  async function start(files: File[]) {
    const problem = checkFiles(files, { maxBytes, mimeTypes });
    const [file] = files;
    if (problem || !file) {
      setState({ status: 'idle', error: problem && describe(problem) });
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setState({ status: 'uploading' });
    try {
      const { url } = await upload(file, controller.signal);
      if (controller.signal.aborted) return;
      setState({ status: 'idle' });
      onUploaded(url);
    } catch {
      if (controller.signal.aborted) return; // Cancelled on purpose: not an error to show (spec §4).
      setState({ status: 'idle', error: t('image_uploader.error_upload') });
    } finally {
      if (abortRef.current === controller) abortRef.current = undefined;
    }
  }

  function cancel() {
    abortRef.current?.abort();
    setState({ status: 'idle' });
  }

  function handleDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragOver(false);
    if (disabled || state.status === 'uploading') return;
    void start([...event.dataTransfer.files]);
  }

  return (
    <div className={styles.uploader}>
      {value && (
        <div className={styles.preview}>
          <img src={value} alt={t('image_uploader.preview')} className={styles.image} />
          {onRemove && (
            <Button
              variant="text"
              size="small"
              icon={<TrashIcon />}
              disabled={disabled || state.status === 'uploading'}
              onClick={onRemove}
            >
              {t('image_uploader.remove')}
            </Button>
          )}
        </div>
      )}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: a drop target for pointer users; Browse is the keyboard path. */}
      <div
        className={classNames(styles.dropZone, isDragOver && styles.dragOver, error && styles.invalid)}
        onDragOver={(event) => {
          event.preventDefault();
          setDragOver(true);
        }}
        onDragLeave={() => setDragOver(false)}
        onDrop={handleDrop}
        data-testid="image-uploader-drop-zone"
      >
        {state.status === 'uploading' ? (
          <>
            <p className={styles.status} role="status">
              <Spinner />
              {t('image_uploader.uploading')}
            </p>
            <Button size="small" onClick={cancel}>
              {t('image_uploader.cancel')}
            </Button>
          </>
        ) : (
          <>
            <p className={styles.status}>
              <UploadIcon />
              {t('image_uploader.drop_hint')}
            </p>
            <Button size="small" disabled={disabled} onClick={() => inputRef.current?.click()} {...field}>
              {t('image_uploader.browse')}
            </Button>
          </>
        )}
        <input
          ref={inputRef}
          type="file"
          className={shared.visuallyHidden}
          accept={mimeTypes.join(',')}
          tabIndex={-1}
          aria-hidden="true"
          disabled={disabled}
          onChange={(event) => {
            void start([...(event.target.files ?? [])]);
            event.target.value = ''; // Lets the same file be chosen again after an error.
          }}
        />
      </div>
      <p id={hintId} className={styles.hint}>
        {t('image_uploader.hint', { types, limit })}
      </p>
      {error && (
        <p id={errorId} className={styles.error} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
