import { useEffect } from 'react';

/** Spec §2.6: onboarding is always light. The appearance module may re-apply the theme (a system change): undo it. */
export function useForcedLightTheme(): void {
  useEffect(() => {
    const root = document.documentElement;
    const previous = root.dataset.theme;
    const force = () => {
      if (root.dataset.theme !== 'light') root.dataset.theme = 'light';
    };
    force();
    const observer = new MutationObserver(force);
    observer.observe(root, { attributes: true, attributeFilter: ['data-theme'] });
    return () => {
      observer.disconnect();
      if (previous === undefined) delete root.dataset.theme;
      else root.dataset.theme = previous;
    };
  }, []);
}
