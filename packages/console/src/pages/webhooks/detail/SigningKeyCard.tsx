import { HOOK_SIGNATURE_HEADER, type Hook } from '@gatehouse/schemas';
import { useState } from 'react';
import { useRotateSigningKey } from '../../../api/webhooks.ts';
import { Button } from '../../../components/Button/Button.tsx';
import { Card } from '../../../components/Card/Card.tsx';
import { CopyButton } from '../../../components/CopyButton/CopyButton.tsx';
import { useConfirm } from '../../../components/Modal/confirm-context.ts';
import { handleSubmitError } from '../../../components/submit/use-submit-handler.ts';
import { useToast } from '../../../components/Toast/ToastProvider.tsx';
import { useTranslation } from '../../../i18n/react.tsx';
import styles from '../Webhooks.module.css';

/** The key is masked until asked for; rotating asks first, since the old key stops working at once. */
export function SigningKeyCard({ hook }: { hook: Hook }) {
  const { t } = useTranslation('webhooks');
  const [isRevealed, setRevealed] = useState(false);
  const confirm = useConfirm();
  const toast = useToast();
  const rotate = useRotateSigningKey(hook.id);

  async function rotateKey() {
    const isConfirmed = await confirm({
      title: t('signing_key.rotate_title'),
      content: t('signing_key.rotate_content'),
      confirmText: t('signing_key.rotate_confirm'),
      isDanger: true,
    });
    if (!isConfirmed) return;
    try {
      await rotate.mutateAsync(undefined);
    } catch (error) {
      if (handleSubmitError(error, toast)) return;
      throw error;
    }
    toast.success(t('signing_key.rotated'));
  }

  return (
    <Card title={t('signing_key.title')} description={t('signing_key.description', { header: HOOK_SIGNATURE_HEADER })}>
      <div className={styles.keyRow}>
        <code className={styles.key} dir="ltr" data-testid="signing-key">
          {isRevealed ? hook.signingKey : '•'.repeat(32)}
        </code>
        <Button variant="text" size="small" onClick={() => setRevealed((revealed) => !revealed)}>
          {t(isRevealed ? 'signing_key.hide' : 'signing_key.reveal')}
        </Button>
        <CopyButton value={hook.signingKey} label={t('signing_key.copy')} />
        <Button size="small" onClick={rotateKey}>
          {t('signing_key.rotate')}
        </Button>
      </div>
    </Card>
  );
}
