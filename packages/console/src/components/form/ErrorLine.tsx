import { useState } from 'react';
import { usePointerPressed } from './pointer-press.ts';

export type ErrorLineProps = {
  id?: string | undefined;
  className?: string | undefined;
  testId?: string | undefined;
  error?: string | undefined;
  role?: 'alert';
};

/**
 * A field's error line. While a pointer is pressed, it keeps showing what it showed when the press began (or nothing),
 * and takes the new state once the click is through: validation on blur must not reflow the form under the press
 * that caused the blur (the lost click of issue 26). Keyboard submits are not held back.
 */
export function ErrorLine({ id, className, testId, error, role }: ErrorLineProps) {
  const pressed = usePointerPressed();
  const [shown, setShown] = useState(error);
  if (!pressed && shown !== error) setShown(error);
  if (!shown) return null;
  return (
    <p id={id} className={className} data-testid={testId} role={role}>
      {shown}
    </p>
  );
}
