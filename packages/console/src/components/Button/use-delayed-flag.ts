import { useEffect, useState } from 'react';

/** True once `flag` has stayed true for `delayMs`; false again as soon as it drops. */
export function useDelayedFlag(flag: boolean, delayMs: number): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!flag) {
      setElapsed(false);
      return;
    }
    const timer = setTimeout(() => setElapsed(true), delayMs);
    return () => clearTimeout(timer);
  }, [flag, delayMs]);
  return flag && elapsed;
}
