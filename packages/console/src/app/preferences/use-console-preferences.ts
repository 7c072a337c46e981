import type { AppearanceMode, Language } from '@gatehouse/schemas';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { changeLanguage, type InterfaceLanguage } from '../../i18n/index.ts';
import { isLanguage } from '../../i18n/languages.ts';
import { useTranslation } from '../../i18n/react.tsx';
import type { AccountState } from '../account.ts';
import { appearance } from './appearance.ts';
import { preferencesToApply, readConsolePreferences, withConsolePreferences } from './preferences.ts';

type Preferences = { language?: Language; appearanceMode?: AppearanceMode };

export function useAppearanceMode(): AppearanceMode {
  const controller = appearance();
  return useSyncExternalStore(controller.subscribe, controller.getMode);
}

/**
 * Language and appearance (spec §1, §3, §4): applied at once and kept in this browser; saved in the account's custom
 * data when the account can be saved. When the account's saved preferences arrive, they win over this browser's.
 */
export function useConsolePreferences({ account, saveCustomData }: AccountState) {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  const appearanceMode = useAppearanceMode();
  const syncedFor = useRef<string>(undefined);
  // A choice made before the account's preferences arrived: it is newer than what they hold, so it wins over them
  // and is saved once they are here (it was reverted by them before).
  const chosenEarly = useRef<Preferences>({});

  const customData = account?.customData;
  useEffect(() => {
    if (!account || !customData || syncedFor.current === account.id) return;
    syncedFor.current = account.id;
    const early = chosenEarly.current;
    chosenEarly.current = {};
    const current = appearance().getMode();
    const local = { language: isLanguage(language) ? language : 'en', appearanceMode: current } as const;
    const changes = preferencesToApply(readConsolePreferences(customData), local);
    if (changes.appearanceMode && !early.appearanceMode) appearance().setMode(changes.appearanceMode);
    if (changes.language && !early.language) void changeLanguage(changes.language);
    if ((early.language || early.appearanceMode) && saveCustomData) {
      void saveCustomData(withConsolePreferences(customData, early));
    }
  }, [account, customData, language, saveCustomData]);

  const save = useCallback(
    async (change: Preferences) => {
      if (!saveCustomData || !customData) {
        chosenEarly.current = { ...chosenEarly.current, ...change };
        return;
      }
      await saveCustomData(withConsolePreferences(customData, change));
    },
    [customData, saveCustomData],
  );

  const setLanguage = useCallback(
    async (next: InterfaceLanguage) => {
      await changeLanguage(next);
      // The development pseudo-locale is not a language of the schema and stays in this browser.
      if (isLanguage(next)) await save({ language: next });
    },
    [save],
  );

  const setAppearanceMode = useCallback(
    async (next: AppearanceMode) => {
      appearance().setMode(next);
      await save({ appearanceMode: next });
    },
    [save],
  );

  return { language, appearanceMode, setLanguage, setAppearanceMode };
}
