import { isBuiltInResourceIndicator, type Resource } from '@gatehouse/schemas';
import { Tag } from '../../components/Tag/Tag.tsx';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './ApiResources.module.css';

/** The facts a list row and the detail header show beside a resource's name: default API, built-in (read-only). */
export function ResourceTags({ resource }: { resource: Pick<Resource, 'indicator' | 'isDefault'> }) {
  const { t } = useTranslation('api_resources');
  const builtIn = isBuiltInResourceIndicator(resource.indicator);
  if (!resource.isDefault && !builtIn) return null;
  return (
    <span className={styles.tags}>
      {resource.isDefault && <Tag status="success">{t('tags.default')}</Tag>}
      {builtIn && <Tag status="info">{t('tags.management')}</Tag>}
      {builtIn && <Tag>{t('tags.read_only')}</Tag>}
    </span>
  );
}
