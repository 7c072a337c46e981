import { type SignInIdentifier, signInIdentifiers } from '@gatehouse/schemas';
import { useFieldArray, useFormState } from 'react-hook-form';
import { Button } from '../../../components/Button/Button.tsx';
import { Checkbox } from '../../../components/form/Checkbox.tsx';
import { ErrorLine } from '../../../components/form/ErrorLine.tsx';
import { Select } from '../../../components/form/Select.tsx';
import { PlusIcon, TrashIcon } from '../../../components/icons.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../SignInExperience.module.css';
import type { SieOutletContext } from '../sie-context.ts';

/**
 * The sign-in methods, in the order the sign-in page offers them: each identifier once, with a password and/or a
 * verification code (a username cannot receive a code); moved up and down, added and removed.
 */
export function SignInMethodsField({ form }: Pick<SieOutletContext, 'form'>) {
  const { t } = useTranslation('sign_in_experience');
  const { control, clearErrors } = form;
  const { fields, append, remove, move, update } = useFieldArray({ control, name: 'signInMethods' });
  const { errors } = useFormState({ control, name: 'signInMethods' });
  const listError = errors.signInMethods?.message ?? errors.signInMethods?.root?.message;
  const used = new Set(fields.map((field) => field.identifier));
  const unused = signInIdentifiers.filter((identifier) => !used.has(identifier));
  const identifierName = (identifier: SignInIdentifier) => t(`identifiers.${identifier}`);
  const changed = () => clearErrors('signInMethods');

  return (
    <fieldset className={styles.fields} aria-describedby={listError ? 'sign-in-methods-error' : undefined}>
      <legend className={styles.hint}>{t('sign_in.methods_description')}</legend>
      {fields.length === 0 && <p className={styles.hint}>{t('sign_in.no_methods')}</p>}
      <ol className={styles.methods} data-testid="signInMethods">
        {fields.map(({ id: key, ...method }, index) => {
          const name = identifierName(method.identifier);
          return (
            <li key={key} className={styles.method} data-testid={`sign-in-method-${method.identifier}`}>
              <Select
                className={styles.methodIdentifier}
                aria-label={t('sign_in.identifier_of', { number: index + 1 })}
                value={method.identifier}
                options={[method.identifier, ...unused].map((identifier) => ({
                  value: identifier,
                  label: identifierName(identifier),
                }))}
                onChange={(event) => {
                  const identifier = event.target.value as SignInIdentifier;
                  update(index, {
                    ...method,
                    identifier,
                    password: method.password || identifier === 'username',
                    verificationCode: identifier === 'username' ? false : method.verificationCode,
                  });
                  changed();
                }}
              />
              <div className={styles.methodFactors}>
                <Checkbox
                  label={t('sign_in.password')}
                  aria-label={t('sign_in.password_of', { name })}
                  checked={method.password}
                  onChange={(event) => {
                    update(index, { ...method, password: event.target.checked });
                    changed();
                  }}
                />
                <Checkbox
                  label={t('sign_in.verification_code')}
                  aria-label={t('sign_in.verification_code_of', { name })}
                  checked={method.verificationCode}
                  disabled={method.identifier === 'username'}
                  onChange={(event) => {
                    update(index, { ...method, verificationCode: event.target.checked });
                    changed();
                  }}
                />
              </div>
              <div className={styles.methodActions}>
                <Button
                  size="small"
                  variant="text"
                  aria-label={t('sign_in.move_up', { name })}
                  disabled={index === 0}
                  onClick={() => {
                    move(index, index - 1);
                    changed();
                  }}
                >
                  {'↑'}
                </Button>
                <Button
                  size="small"
                  variant="text"
                  aria-label={t('sign_in.move_down', { name })}
                  disabled={index === fields.length - 1}
                  onClick={() => {
                    move(index, index + 1);
                    changed();
                  }}
                >
                  {'↓'}
                </Button>
                <Button
                  size="small"
                  variant="text"
                  icon={<TrashIcon />}
                  aria-label={t('sign_in.remove', { name })}
                  onClick={() => {
                    remove(index);
                    changed();
                  }}
                />
              </div>
            </li>
          );
        })}
      </ol>
      <div>
        <Button
          size="small"
          icon={<PlusIcon />}
          disabled={unused.length === 0}
          onClick={() => {
            const [identifier] = unused;
            if (!identifier) return;
            append({
              identifier,
              password: true,
              verificationCode: false,
              isPasswordPrimary: true,
            });
            changed();
          }}
        >
          {t('sign_in.add')}
        </Button>
      </div>
      <ErrorLine
        id="sign-in-methods-error"
        className={styles.error}
        testId="signInMethods-error"
        role="alert"
        error={listError || undefined}
      />
    </fieldset>
  );
}
