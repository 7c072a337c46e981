import { useCallback, useEffect, useRef } from 'react';

/** Calls the latest `callback` once `delayMs` have passed without a new call; `flush` calls it now. */
export function useDebouncedCallback<Args extends unknown[]>(callback: (...args: Args) => void, delayMs: number) {
  const callbackRef = useRef(callback);
  const timerRef = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => {
    callbackRef.current = callback;
  });
  useEffect(() => () => clearTimeout(timerRef.current), []);

  const schedule = useCallback(
    (...args: Args) => {
      clearTimeout(timerRef.current);
      timerRef.current = setTimeout(() => callbackRef.current(...args), delayMs);
    },
    [delayMs],
  );
  const flush = useCallback((...args: Args) => {
    clearTimeout(timerRef.current);
    callbackRef.current(...args);
  }, []);
  return { schedule, flush };
}
