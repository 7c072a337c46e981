import type { Connector } from '@gatehouse/schemas';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './Connectors.module.css';

/** A localized name map read in the interface language, English when it has none. */
export function nameIn(name: Record<string, string> | undefined, language: string): string {
  if (!name) return '';
  return name[language] ?? name[language.split('-')[0] ?? ''] ?? name.en ?? Object.values(name)[0] ?? '';
}

/** The name a connector shows: its own display name if set, else its factory's. */
export function useConnectorName() {
  const { i18n } = useTranslation();
  return (connector: Pick<Connector, 'name' | 'metadata'>) =>
    nameIn(connector.metadata.name, i18n.language) || nameIn(connector.name, i18n.language);
}

/** A factory's or connector's logo: decoration, the name beside it says what it is. */
export function ConnectorLogo({ src }: { src: string }) {
  return <img className={styles.logo} src={src} alt="" width={40} height={40} />;
}
