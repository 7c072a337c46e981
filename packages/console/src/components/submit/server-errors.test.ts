import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { FormValidationError } from './form-validation-error.ts';
import { applyServerErrors, type ServerErrorMapping, serverErrorIds, serverFieldErrors } from './server-errors.ts';

type Form = { name: string; redirectUris: string[]; password: string };

/** An API path → form path map like the applications forms' (`oidcClientMetadata.redirectUris.1` → `redirectUris.1`). */
const toFormPath = (apiPath: string) => {
  if (apiPath === 'name') return 'name';
  const [, index] = /^oidcClientMetadata\.redirectUris\.(\d+)$/.exec(apiPath) ?? [];
  return index === undefined ? undefined : `redirectUris.${index}`;
};

const invalidInput = (fields: unknown) => new ApiError(400, 'The request is invalid.', 'guard.invalid_input', fields);

describe('serverFieldErrors', () => {
  it('puts each field a 400 names beside that field, leaving out fields the form lacks', () => {
    const error = invalidInput([
      { path: 'oidcClientMetadata.redirectUris.1', message: 'must use http or https', code: 'custom' },
      { path: 'customData', message: 'too big', code: 'custom' },
    ]);
    expect(serverFieldErrors(error, { paths: toFormPath })).toEqual([
      { field: 'redirectUris.1', message: 'must use http or https' },
    ]);
  });

  it('puts a 422 about one field beside it with the server’s translated message', () => {
    const error = new ApiError(422, 'Diese Entity-ID wird bereits verwendet.', 'application.saml.entity_id_in_use');
    expect(serverFieldErrors<Form>(error, { codes: { 'application.saml.entity_id_in_use': 'name' } })).toEqual([
      { field: 'name', message: 'Diese Entity-ID wird bereits verwendet.' },
    ]);
  });

  it('words a code’s message itself when the mapping says how', () => {
    const error = new ApiError(400, 'reserved', 'guard.invalid_input', []);
    const mapping: ServerErrorMapping<Form> = {
      codes: { 'guard.invalid_input': { field: 'name', message: () => 'That name is reserved.' } },
      paths: toFormPath,
    };
    expect(serverFieldErrors(error, mapping)).toEqual([{ field: 'name', message: 'That name is reserved.' }]);
  });

  it('reads the same list under the codes a form names (a connector’s config refusal), and only those', () => {
    const fields = [{ path: 'name', message: 'required', code: 'custom' }];
    const refusal = new ApiError(400, 'bad config', 'connector.invalid_config_guard', fields);
    expect(serverFieldErrors(refusal, { paths: toFormPath, listCodes: ['connector.invalid_config_guard'] })).toEqual([
      { field: 'name', message: 'required' },
    ]);
    expect(serverFieldErrors(refusal, { paths: toFormPath })).toEqual([]);
    expect(serverFieldErrors(invalidInput(fields), { paths: toFormPath, listCodes: ['connector.x'] })).toEqual([]);
  });

  it('says a listed field’s issue in the form’s own words when the form gives them for its code', () => {
    const refusal = new ApiError(400, 'bad config', 'connector.invalid_config_guard', [
      { path: 'password', message: 'Enter this secret again: host changed, …', code: 'secret_required' },
      { path: 'name', message: 'required', code: 'custom' },
    ]);
    const mapping = {
      paths: (apiPath: string) => (apiPath === 'password' ? 'password' : apiPath === 'name' ? 'name' : undefined),
      listCodes: ['connector.invalid_config_guard'],
      issueMessages: { secret_required: 'Geben Sie das Geheimnis erneut ein.' },
    };
    expect(serverFieldErrors<Form>(refusal, mapping)).toEqual([
      { field: 'password', message: 'Geben Sie das Geheimnis erneut ein.' },
      { field: 'name', message: 'required' },
    ]);
    // Without the form's words, and for codes inherited from Object, the server's message stands.
    const { issueMessages: _, ...plain } = mapping;
    expect(serverFieldErrors<Form>(refusal, plain)[0]?.message).toBe('Enter this secret again: host changed, …');
    const inherited = new ApiError(400, 'x', 'guard.invalid_input', [{ path: 'name', message: 'x', code: 'toString' }]);
    expect(serverFieldErrors<Form>(inherited, { paths: toFormPath, issueMessages: {} })).toEqual([
      { field: 'name', message: 'x' },
    ]);
  });

  it('places nothing for other errors', () => {
    expect(serverFieldErrors(new ApiError(500, 'boom', 'request.general'), { paths: toFormPath })).toEqual([]);
    expect(serverFieldErrors(new Error('network'), { paths: toFormPath })).toEqual([]);
    expect(serverFieldErrors(invalidInput('not a list'), { paths: toFormPath })).toEqual([]);
    // A list of invalid fields is placed only by forms that map API paths.
    expect(serverFieldErrors(invalidInput([{ path: 'name', message: 'x', code: 'custom' }]))).toEqual([]);
    // Names inherited from Object are not codes of a mapping.
    expect(serverFieldErrors<Form>(new ApiError(422, 'x', 'constructor'), { codes: { other: 'name' } })).toEqual([]);
  });
});

describe('applyServerErrors', () => {
  it('sets the named fields, focusing the first, and reports that it showed the error', () => {
    const setError = vi.fn();
    const error = invalidInput([
      { path: 'name', message: 'required', code: 'custom' },
      { path: 'oidcClientMetadata.redirectUris.0', message: 'not a URL', code: 'custom' },
    ]);
    expect(applyServerErrors<Form>({ setError }, error, { paths: toFormPath })).toBe(true);
    expect(setError.mock.calls).toEqual([
      ['name', { type: 'server', message: 'required' }, { shouldFocus: true }],
      ['redirectUris.0', { type: 'server', message: 'not a URL' }, { shouldFocus: false }],
    ]);
  });

  it('hands a claimed refusal that names no field of the form to `onUnplaced` instead of throwing it', () => {
    const setError = vi.fn();
    const onUnplaced = vi.fn();
    const mapping = { paths: toFormPath, listCodes: ['connector.invalid_metadata'], onUnplaced };
    // The IdP's own failure, not a field's (the SSO connection tab's result card shows it).
    const unreadable = new ApiError(400, 'The metadata could not be read.', 'connector.invalid_metadata');
    expect(applyServerErrors<Form>({ setError }, unreadable, mapping)).toBe(true);
    expect(onUnplaced).toHaveBeenCalledExactlyOnceWith(unreadable);
    expect(setError).not.toHaveBeenCalled();
    // A refusal naming a field of the form still goes onto it.
    const named = new ApiError(400, 'bad', 'connector.invalid_metadata', [{ path: 'name', message: 'x', code: 'c' }]);
    expect(applyServerErrors<Form>({ setError }, named, mapping)).toBe(true);
    expect(setError).toHaveBeenCalledExactlyOnceWith('name', { type: 'server', message: 'x' }, { shouldFocus: true });
    expect(onUnplaced).toHaveBeenCalledOnce();
  });

  it('puts a unique-name conflict on its field', () => {
    const setError = vi.fn();
    const error = new ApiError(422, 'The role name is in use.', 'role.name_in_use');
    expect(applyServerErrors<Form>({ setError }, error, { codes: { 'role.name_in_use': 'name' } })).toBe(true);
    expect(setError).toHaveBeenCalledExactlyOnceWith(
      'name',
      { type: 'server', message: 'The role name is in use.' },
      { shouldFocus: true },
    );
  });

  it('leaves other errors, 401 and non-API errors to the caller', () => {
    const setError = vi.fn();
    const mapping = { codes: { 'role.name_in_use': 'name' } } as const;
    expect(applyServerErrors<Form>({ setError }, new ApiError(500, 'boom', 'request.general'), mapping)).toBe(false);
    expect(applyServerErrors<Form>({ setError }, new ApiError(401, 'x', 'role.name_in_use'), mapping)).toBe(false);
    expect(applyServerErrors<Form>({ setError }, new TypeError('bug'), mapping)).toBe(false);
    expect(setError).not.toHaveBeenCalled();
  });

  it('turns a claimed refusal that names no field of the form into a toast (a FormValidationError)', () => {
    const setError = vi.fn();
    const error = invalidInput([{ path: 'customData', message: 'too big', code: 'custom' }]);
    expect(() => applyServerErrors<Form>({ setError }, error, { paths: toFormPath })).toThrow(
      new FormValidationError('The request is invalid.'),
    );
    expect(setError).not.toHaveBeenCalled();
  });
});

describe('serverErrorIds', () => {
  it('reads the ids a 422 of the code asked about lists (added meanwhile by someone else)', () => {
    const error = new ApiError(422, 'Already members.', 'organization.user_exists', { ids: ['u1', 'u2'] });
    expect(serverErrorIds(error, 'organization.user_exists')).toEqual(['u1', 'u2']);
  });

  it('gives nothing for another code, malformed data or another error', () => {
    const error = new ApiError(422, 'x', 'organization.user_exists', { ids: ['u1'] });
    expect(serverErrorIds(error, 'organization.application_exists')).toBeUndefined();
    expect(
      serverErrorIds(new ApiError(422, 'x', 'organization.user_exists', { ids: 'u1' }), 'organization.user_exists'),
    ).toBeUndefined();
    expect(serverErrorIds(new Error('network'), 'organization.user_exists')).toBeUndefined();
  });
});
