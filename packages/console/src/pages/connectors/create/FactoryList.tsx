import type { ConnectorFactory } from '@gatehouse/schemas';
import { Link } from 'react-router';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { ConnectorLogo, nameIn } from '../ConnectorFacts.tsx';
import styles from '../Connectors.module.css';
import { type ConnectorListTab, toConnectorGuide } from '../links.ts';

/** Factories as cards (logo, name, description); choosing one opens its guide and form. */
export function FactoryList({ factories, tab }: { factories: readonly ConnectorFactory[]; tab: ConnectorListTab }) {
  const { i18n } = useTranslation();
  const resolve = useTenantPath();
  return (
    <ul className={styles.factories}>
      {factories.map((factory) => (
        <li key={factory.id}>
          <Link
            className={styles.factory}
            to={resolve(toConnectorGuide(tab, factory.id))}
            data-testid={`factory-${factory.id}`}
          >
            <ConnectorLogo src={factory.logo} />
            <span className={styles.factoryText}>
              <span className={styles.rowName}>{nameIn(factory.name, i18n.language)}</span>
              <span className={styles.muted}>{nameIn(factory.description, i18n.language)}</span>
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
