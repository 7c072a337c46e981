import { useQuery } from '@tanstack/react-query';
import { currentUser } from '../auth/session.ts';
import type { CustomData } from './preferences/preferences.ts';

/** Who is signed in, as the user menu shows them, and their custom data (which holds the console preferences). */
export type Account = {
  id: string;
  name: string | null;
  username: string | null;
  email: string | null;
  avatar: string | null;
  /** Undefined until the 'me' API answers: preferences are then kept in this browser only. */
  customData: CustomData | undefined;
};

export type AccountState = {
  account: Account | undefined;
  /** Saves the whole custom data (PATCH me/custom-data); undefined while it cannot be saved. */
  saveCustomData: ((customData: CustomData) => Promise<unknown>) | undefined;
};

function claim(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * The signed-in account. Until the console has the 'me' API client (src/api/me.ts) this reads the ID token's claims,
 * which name the user but carry no custom data.
 */
export function useAccount(): AccountState {
  const session = useQuery({
    queryKey: ['session', 'profile'],
    queryFn: async () => {
      const profile = (await currentUser())?.profile;
      if (!profile) return null;
      return {
        id: profile.sub,
        name: claim(profile.name),
        username: claim(profile.preferred_username) ?? claim(profile.username),
        email: claim(profile.email),
        avatar: claim(profile.picture),
        customData: undefined,
      } satisfies Account;
    },
    staleTime: Number.POSITIVE_INFINITY,
  });
  return { account: session.data ?? undefined, saveCustomData: undefined };
}
