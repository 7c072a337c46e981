import { jwtCustomizerTokenTypes } from '@gatehouse/schemas';
import { PageHeader } from '../../components/PageHeader/PageHeader.tsx';
import { useDocumentTitle } from '../../components/use-document-title.ts';
import { useTranslation } from '../../i18n/react.tsx';
import styles from './CustomizeJwt.module.css';
import { IdTokenClaimsCard } from './IdTokenClaimsCard.tsx';
import { TokenScriptCards } from './TokenScriptCards.tsx';

/**
 * Spec §2.2 customize-jwt index: the script of each token type (user access tokens, machine-to-machine tokens), added
 * or edited on its own page, and which extended user claims go into ID tokens.
 */
export function CustomizeJwtPage() {
  const { t } = useTranslation('customize_jwt');
  useDocumentTitle(t('title'));
  return (
    <div className={styles.page}>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <TokenScriptCards tokenTypes={jwtCustomizerTokenTypes} />
      <IdTokenClaimsCard />
    </div>
  );
}
