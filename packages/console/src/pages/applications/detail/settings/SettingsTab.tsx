import { Link } from 'react-router';
import { Card } from '../../../../components/Card/Card.tsx';
import { useTenantPath } from '../../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../../i18n/react.tsx';
import { traitsOf } from '../../application-types.ts';
import { toApplicationGuide } from '../../links.ts';
import { useApplicationOutlet } from '../ApplicationDetailPage.tsx';
import { SecretsCard } from '../secrets/SecretsCard.tsx';
import { EndpointsCard } from './EndpointsCard.tsx';
import { OidcSettingsForm } from './OidcSettingsForm.tsx';
import { SamlSettingsForm } from './SamlSettingsForm.tsx';
import styles from './Settings.module.css';

/**
 * Spec §2.2 settings tab. The cards with their own dialogs (secrets) sit outside the settings form: a dialog's form
 * is portalled out of the DOM, but React still bubbles its submit to an enclosing form.
 */
export function SettingsTab() {
  const { t } = useTranslation('applications');
  const { application } = useApplicationOutlet();
  const resolve = useTenantPath();
  const traits = traitsOf(application.type);
  return (
    <div className={styles.tab}>
      {traits.guides.length > 0 && (
        <Card title={t('guides.card_title')} description={t('guides.card_description')}>
          <ul className={styles.guideList}>
            {traits.guides.map((guide) => (
              <li key={guide}>
                <Link to={resolve(toApplicationGuide(application.id, guide))} className={styles.guideLink}>
                  <span className={styles.guideTitle}>{t(`guides.${guide}.title`)}</span>
                  <span className={styles.guideSummary}>{t(`guides.${guide}.summary`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {traits.samlConfig ? (
        <SamlSettingsForm application={application} />
      ) : (
        <>
          <OidcSettingsForm key={application.id} application={application} />
          <EndpointsCard application={application} />
        </>
      )}
      {traits.secrets && <SecretsCard application={application} />}
    </div>
  );
}
