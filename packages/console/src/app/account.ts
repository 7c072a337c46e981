import { useMe, useUpdateCustomData } from '../api/me.ts';
import type { CustomData } from './preferences/preferences.ts';

/** Who is signed in, as the user menu shows them, and their custom data (which holds the console preferences). */
export type Account = {
  id: string;
  name: string | null;
  username: string | null;
  email: string | null;
  avatar: string | null;
  customData: CustomData | undefined;
};

export type AccountState = {
  account: Account | undefined;
  /** Saves the whole custom data (PATCH me/custom-data); undefined while it cannot be saved. */
  saveCustomData: ((customData: CustomData) => Promise<unknown>) | undefined;
};

/** The signed-in account from the 'me' API, and how to save its custom data. */
export function useAccount(): AccountState {
  const me = useMe();
  const update = useUpdateCustomData();
  const account: Account | undefined = me.data && {
    id: me.data.id,
    name: me.data.name,
    username: me.data.username,
    email: me.data.primaryEmail,
    avatar: me.data.avatar,
    customData: me.data.customData,
  };
  return { account, saveCustomData: account ? update.mutateAsync : undefined };
}
