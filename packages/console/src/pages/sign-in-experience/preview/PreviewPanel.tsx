import {
  type Language,
  languages,
  type PreviewScreen,
  previewScreens,
  type SignInExperience,
} from '@gatehouse/schemas';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import { useSignInApplications } from '../../../api/applications.ts';
import { useSignInPreview } from '../../../api/sign-in-experience.ts';
import { classNames } from '../../../components/class-names.ts';
import { Select } from '../../../components/form/Select.tsx';
import { languageName } from '../../../i18n/language-name.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../SignInExperience.module.css';
import { previewPatch, type SieForm } from '../sie-form.ts';
import { previewFrameUrl } from './preview-url.ts';

/** Spec: the preview asks again after a pause in typing of this long, not on every key. */
export const PREVIEW_DEBOUNCE_MS = 500;
/** An address is asked for again this long before it expires (the server keeps it 10 minutes). */
const RENEW_BEFORE_MS = 30_000;

type Device = 'desktop' | 'mobile';
type Theme = 'light' | 'dark';

/**
 * The live preview beside the form: the real sign-in page with the saved settings and the form's unsaved changes
 * (POST /sign-in-exp/preview, debounced), in an iframe; the admin picks the screen, the device width, the theme and the
 * language. Values not valid yet are left out of the preview's changes rather than stopping it.
 */
export function PreviewPanel({ control, saved }: { control: Control<SieForm>; saved: SignInExperience }) {
  const { t } = useTranslation('sign_in_experience');
  const values = useWatch({ control }) as SieForm;
  const preview = useSignInPreview();
  const { mutateAsync } = preview;
  const [address, setAddress] = useState<{ url: string; expiresAt: number }>();
  const [screen, setScreen] = useState<PreviewScreen>('sign_in');
  const [device, setDevice] = useState<Device>('desktop');
  const [theme, setTheme] = useState<Theme>('light');
  const [language, setLanguage] = useState<Language>(saved.languageInfo.fallbackLanguage);
  // The real page says "Sign in to <application>": the preview is named for one too, the first by default.
  const applications = useSignInApplications();
  const [chosenApplication, setApplication] = useState<string>();
  const applicationId = chosenApplication ?? applications.data?.[0]?.id;
  const [renewals, setRenewals] = useState(0);
  const latest = useRef(0);
  const settings = JSON.stringify(previewPatch(values, saved));

  // biome-ignore lint/correctness/useExhaustiveDependencies: renewals asks again for the same settings when the address nears its end.
  useEffect(() => {
    const request = ++latest.current;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      mutateAsync({ settings: JSON.parse(settings), signal: controller.signal }).then(
        (answer) => {
          if (request === latest.current) setAddress(answer);
        },
        () => undefined, // The last page stays; a value still being typed is not worth a message.
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [settings, mutateAsync, renewals]);

  useEffect(() => {
    if (!address) return;
    const timer = setTimeout(
      () => setRenewals((count) => count + 1),
      Math.max(0, address.expiresAt - Date.now() - RENEW_BEFORE_MS),
    );
    return () => clearTimeout(timer);
  }, [address]);

  const src = address ? previewFrameUrl(address.url, { screen, language, theme, applicationId }) : undefined;
  return (
    <aside className={styles.preview} aria-labelledby="sie-preview-title">
      <h2 id="sie-preview-title" className={styles.previewTitle}>
        {t('preview.title')}
      </h2>
      <div className={styles.previewControls}>
        {applications.data && applications.data.length > 0 && (
          <PreviewControl label={t('preview.application')}>
            <Select
              aria-label={t('preview.application')}
              value={applicationId ?? ''}
              options={applications.data.map((application) => ({ value: application.id, label: application.name }))}
              onChange={(event) => setApplication(event.target.value)}
            />
          </PreviewControl>
        )}
        <PreviewControl label={t('preview.screen')}>
          <Select
            aria-label={t('preview.screen')}
            value={screen}
            options={previewScreens.map((value) => ({ value, label: t(`preview.screens.${value}`) }))}
            onChange={(event) => setScreen(event.target.value as PreviewScreen)}
          />
        </PreviewControl>
        <PreviewControl label={t('preview.device')}>
          <Select
            aria-label={t('preview.device')}
            value={device}
            options={(['desktop', 'mobile'] as const).map((value) => ({ value, label: t(`preview.devices.${value}`) }))}
            onChange={(event) => setDevice(event.target.value as Device)}
          />
        </PreviewControl>
        <PreviewControl label={t('preview.theme')}>
          <Select
            aria-label={t('preview.theme')}
            value={theme}
            options={(['light', 'dark'] as const).map((value) => ({ value, label: t(`preview.themes.${value}`) }))}
            onChange={(event) => setTheme(event.target.value as Theme)}
          />
        </PreviewControl>
        <PreviewControl label={t('preview.language')}>
          <Select
            aria-label={t('preview.language')}
            value={language}
            options={languages.map((value) => ({ value, label: languageName(value) }))}
            onChange={(event) => setLanguage(event.target.value as Language)}
          />
        </PreviewControl>
      </div>
      <div className={styles.frameArea}>
        {src ? (
          <iframe
            className={classNames(styles.frame, device === 'mobile' && styles.mobile)}
            title={t('preview.frame_title')}
            src={src}
            data-testid="sie-preview-frame"
          />
        ) : (
          <p className={styles.previewStatus} role="status">
            {preview.isError ? t('preview.unavailable') : t('preview.loading')}
          </p>
        )}
      </div>
    </aside>
  );
}

function PreviewControl({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the select inside is the control; its aria-label names it too.
    <label className={styles.previewControl}>
      <span>{label}</span>
      {children}
    </label>
  );
}
