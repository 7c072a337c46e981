import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client.ts';
import { settingsFormPath } from '../detail/settings/settings-form.ts';
import { serverFieldErrors } from './server-errors.ts';

describe('a refused save placed on the form', () => {
  it('puts each field a 400 names beside that field, leaving out fields the form lacks', () => {
    const error = new ApiError(400, 'The request is invalid.', 'guard.invalid_input', [
      { path: 'oidcClientMetadata.redirectUris.1', message: 'must use http or https', code: 'custom' },
      { path: 'customData', message: 'too big', code: 'custom' },
    ]);
    expect(serverFieldErrors(error, settingsFormPath)).toEqual([
      { field: 'redirectUris.1', message: 'must use http or https' },
    ]);
  });

  it('puts a 422 about one field beside it with the server’s translated message', () => {
    const error = new ApiError(422, 'Diese Entity-ID wird bereits verwendet.', 'application.saml.entity_id_in_use');
    expect(serverFieldErrors(error, () => undefined, { 'application.saml.entity_id_in_use': 'entityId' })).toEqual([
      { field: 'entityId', message: 'Diese Entity-ID wird bereits verwendet.' },
    ]);
  });

  it('places nothing for other errors', () => {
    expect(serverFieldErrors(new ApiError(500, 'boom', 'request.general'), settingsFormPath)).toEqual([]);
    expect(serverFieldErrors(new Error('network'), settingsFormPath)).toEqual([]);
    expect(serverFieldErrors(new ApiError(400, 'bad', 'guard.invalid_input', 'not a list'), settingsFormPath)).toEqual(
      [],
    );
  });
});
