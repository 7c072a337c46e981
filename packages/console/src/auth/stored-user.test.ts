// @vitest-environment happy-dom
import { User, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConsoleConfig } from './console-config.ts';
import { oidcSettings } from './oidc-settings.ts';
import { readStoredUser } from './stored-user.ts';

const config: ConsoleConfig = {
  edition: 'oss',
  version: '0.1.0',
  adminExists: true,
  issuer: 'http://127.0.0.1:3001/oidc',
  clientId: 'admin-console',
  resource: 'https://default.gatehouse.app/api',
  meResource: 'https://admin.gatehouse.app/me',
};

/** The OIDC client exactly as session.ts builds it, so the entry it writes is the one a signed-in page has. */
const manager = () =>
  new UserManager({ ...oidcSettings(config), userStore: new WebStorageStateStore({ store: sessionStorage }) });

const profile = { sub: 'user-1', iss: config.issuer, aud: config.clientId, exp: 2, iat: 1 };

afterEach(() => sessionStorage.clear());

describe('the stored user read without the OIDC client', () => {
  it('reads the tokens the OIDC client stored', async () => {
    await manager().storeUser(
      new User({
        access_token: 'access-1',
        refresh_token: 'refresh-1',
        id_token: 'id-1',
        token_type: 'Bearer',
        scope: 'openid all',
        profile,
        expires_at: 1_900_000_000,
      }),
    );
    expect(readStoredUser(config)).toEqual({
      access_token: 'access-1',
      refresh_token: 'refresh-1',
      id_token: 'id-1',
      scope: 'openid all',
      expires_at: 1_900_000_000,
    });
  });

  it('sees the user the OIDC client removed as signed out', async () => {
    const oidc = manager();
    await oidc.storeUser(new User({ access_token: 'a', token_type: 'Bearer', profile }));
    expect(readStoredUser(config)?.access_token).toBe('a');
    await oidc.removeUser();
    expect(readStoredUser(config)).toBeNull();
  });

  it('keeps users of another issuer or client apart, and treats an unreadable entry as signed out', async () => {
    await manager().storeUser(new User({ access_token: 'a', token_type: 'Bearer', profile }));
    expect(readStoredUser({ ...config, clientId: 'other' })).toBeNull();
    expect(readStoredUser({ ...config, issuer: 'http://127.0.0.1:3002/oidc' })).toBeNull();
    sessionStorage.setItem(`oidc.user:${config.issuer}:${config.clientId}`, '{not json');
    expect(readStoredUser(config)).toBeNull();
  });
});
