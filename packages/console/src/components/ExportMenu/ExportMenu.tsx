import { useManagementApi } from '../../api/management.ts';
import { useTranslation } from '../../i18n/react.tsx';
import { buttonClassName } from '../Button/Button.tsx';
import { MenuButton } from '../Menu/MenuButton.tsx';
import { useToast } from '../Toast/ToastProvider.tsx';
import { downloadExport, type ExportFilters, type ExportFormat, exportFileName } from './download.ts';
import styles from './ExportMenu.module.css';

export type ExportMenuProps = {
  /** The export route of the management API, relative to it ('/users/export'). */
  apiPath: string;
  /** The list's current filters, sent as the export's query (same names as the list's). */
  filters?: ExportFilters;
  /** The downloaded file's base name; the date and extension are added ('users' → 'users-2026-11-21.csv'). */
  fileName: string;
};

const formats: readonly ExportFormat[] = ['csv', 'json'];

/**
 * 'Export' menu of a list: CSV or JSON of every row the filters match, across all pages (the server streams it).
 * A failed download shows the server's message as a toast.
 */
export function ExportMenu({ apiPath, filters = {}, fileName }: ExportMenuProps) {
  const { t } = useTranslation('components');
  const api = useManagementApi();
  const toast = useToast();
  const entries = formats.map((format) => ({
    id: format,
    kind: 'action' as const,
    label: t(`export_menu.${format}`),
    onSelect: () =>
      downloadExport(api.path(apiPath), format, filters, exportFileName(fileName, format)).catch((error: unknown) => {
        toast.error(error instanceof Error && error.message ? error.message : t('export_menu.failed'));
      }),
  }));
  return (
    <MenuButton label={t('export_menu.label')} entries={entries} className={styles.root}>
      <span className={buttonClassName('default')}>{t('export_menu.label')}</span>
    </MenuButton>
  );
}
