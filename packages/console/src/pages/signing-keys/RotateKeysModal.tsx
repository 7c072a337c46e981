import type { OidcKeyType, SigningKeyAlgorithm } from '@gatehouse/schemas';
import { signingKeyAlgorithms } from '@gatehouse/schemas';
import { useState } from 'react';
import { useRotateOidcKeys } from '../../api/signing-keys.ts';
import { CardRadio } from '../../components/form/CardRadio.tsx';
import { FormField } from '../../components/form/FormField.tsx';
import { FormModal } from '../../components/Modal/FormModal.tsx';
import { handleSubmitError } from '../../components/submit/use-submit-handler.ts';
import { useToast } from '../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../i18n/react.tsx';

/**
 * Confirms a rotation and says what it does; private keys also choose the new key's algorithm (the current key's
 * family by default).
 */
export function RotateKeysModal({
  keyType,
  currentAlgorithm,
  onClose,
}: {
  keyType: OidcKeyType;
  currentAlgorithm: SigningKeyAlgorithm | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation('signing_keys');
  const rotate = useRotateOidcKeys(keyType);
  const toast = useToast();
  const [algorithm, setAlgorithm] = useState<SigningKeyAlgorithm>(currentAlgorithm ?? 'RSA');
  const type = keyType === 'private-keys' ? 'private' : 'cookie';

  async function submit() {
    try {
      await rotate.mutateAsync(keyType === 'private-keys' ? algorithm : undefined);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t(`${type}.rotated`));
    onClose();
  }

  return (
    <FormModal
      title={t(`${type}.rotate_title`)}
      description={t(`${type}.rotate_content`)}
      submitText={t('rotate')}
      isSubmitting={rotate.isPending}
      onClose={onClose}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {keyType === 'private-keys' && (
        <FormField name="signingKeyAlgorithm" label={t('algorithm_label')} isGroup>
          <CardRadio
            name="signingKeyAlgorithm"
            value={algorithm}
            onChange={setAlgorithm}
            options={signingKeyAlgorithms.map((value) => ({
              value,
              // Algorithm names read left to right in every language.
              title: <bdi dir="ltr">{t(`algorithms.${value}`)}</bdi>,
              description: t(`algorithm_descriptions.${value}`),
            }))}
          />
        </FormField>
      )}
    </FormModal>
  );
}
