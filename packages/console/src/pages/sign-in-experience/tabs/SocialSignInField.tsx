import type { Connector } from '@gatehouse/schemas';
import { useController } from 'react-hook-form';
import { Link } from 'react-router';
import { useConnectors } from '../../../api/connectors.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Checkbox } from '../../../components/form/Checkbox.tsx';
import { Loading } from '../../../components/Loading.tsx';
import { useTenantPath } from '../../../components/routing/tenant-path.ts';
import { useTranslation } from '../../../i18n/react.tsx';
import { nameIn } from '../../connectors/ConnectorFacts.tsx';
import { toConnectors } from '../../connectors/links.ts';
import styles from '../SignInExperience.module.css';
import type { SieOutletContext } from '../sie-context.ts';

type Row = { target: string; connector: Connector | undefined; checked: boolean };

/**
 * The social sign-in buttons (`socialSignInConnectorTargets`): a checkbox per social connector of the tenant, ticked
 * when its target is listed; the ticked ones first, in button order, moved up and down. Sign-in pages show one
 * connector per target, so connectors sharing a target are one row. A listed target no connector has any more stays
 * (it shows nothing) until it is unticked.
 */
export function SocialSignInField({ form }: Pick<SieOutletContext, 'form'>) {
  const { t, i18n } = useTranslation('sign_in_experience');
  const resolve = useTenantPath();
  const connectors = useConnectors();
  const { field } = useController({ control: form.control, name: 'socialTargets' });
  const targets = field.value;

  if (connectors.isPending) return <Loading />;
  const social = (connectors.data ?? []).filter((connector) => connector.type === 'Social');
  const byTarget = new Map<string, Connector>();
  for (const connector of social) if (!byTarget.has(connector.target)) byTarget.set(connector.target, connector);
  const rows: Row[] = [
    ...targets.map((target) => ({ target, connector: byTarget.get(target), checked: true })),
    ...[...byTarget.entries()]
      .filter(([target]) => !targets.includes(target))
      .map(([target, connector]) => ({ target, connector, checked: false })),
  ];
  const nameOf = (row: Row) =>
    row.connector
      ? nameIn(row.connector.metadata.name, i18n.language) || nameIn(row.connector.name, i18n.language)
      : row.target;
  const move = (index: number, by: number) => {
    const next = [...targets];
    const [target] = next.splice(index, 1);
    if (target === undefined) return;
    next.splice(index + by, 0, target);
    field.onChange(next);
  };

  return (
    <fieldset className={styles.fields} data-testid="socialTargets">
      <legend className={styles.hint}>{t('social.description')}</legend>
      {connectors.isError && <p className={styles.error}>{t('social.load_failed')}</p>}
      {rows.length === 0 ? (
        <p className={styles.hint} data-testid="social-sign-in-empty">
          {t('social.none')} <Link to={resolve(toConnectors('social'))}>{t('social.set_up')}</Link>
        </p>
      ) : (
        <ul className={styles.methods}>
          {rows.map((row, index) => {
            const name = nameOf(row);
            return (
              <li key={row.target} className={styles.method} data-testid={`social-target-${row.target}`}>
                <div className={styles.methodFactors}>
                  <Checkbox
                    label={name}
                    checked={row.checked}
                    onChange={(event) =>
                      field.onChange(
                        event.target.checked
                          ? [...targets, row.target]
                          : targets.filter((target) => target !== row.target),
                      )
                    }
                  />
                  <span className={styles.hint}>
                    {row.connector
                      ? t('social.target', { target: row.target })
                      : t('social.missing', { target: row.target })}
                  </span>
                </div>
                {row.checked && (
                  <div className={styles.methodActions}>
                    <Button
                      size="small"
                      variant="text"
                      aria-label={t('sign_in.move_up', { name })}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      {'↑'}
                    </Button>
                    <Button
                      size="small"
                      variant="text"
                      aria-label={t('sign_in.move_down', { name })}
                      disabled={index === targets.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      {'↓'}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </fieldset>
  );
}
