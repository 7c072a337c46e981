import type { ZodError } from 'zod';
import type { ErrorCode, InvalidField } from './errors.ts';

/**
 * The kinds of refusal the domain knows, each with the HTTP status the API answers it with. Services, auth, db and
 * billing throw a {@link DomainError} of one of these kinds; the HTTP edge (the server's `app.ts` error handler) turns
 * it into `{code, message, data}` with {@link domainErrorStatus}, once.
 */
export const domainErrorStatuses = {
  /** The input is malformed or asks for something the rules never allow (`guard.invalid_input`, a refused URL). */
  invalid: 400,
  /** No valid credentials (`auth.unauthorized`). */
  unauthorized: 401,
  /** Valid credentials without the right (`auth.forbidden`, a read-only resource, an unverified email). */
  forbidden: 403,
  /** A plan's limit is reached (`subscription.quota_exceeded`); the reference answers it 403. */
  quota: 403,
  /** The entity, or one it refers to, does not exist (the 404 codes of docs/conventions.md). */
  not_found: 404,
  /**
   * The value is already in use or the link already exists. The reference API answers conflicts 422, not 409
   * (docs/conventions.md, "unique violations answer 422"), and so does this one.
   */
  conflict: 422,
  /** A body or file above its size limit. */
  too_large: 413,
  /** A file of a type that is not accepted. */
  unsupported_type: 415,
  /** Well-formed input that breaks a domain rule in the current state (the last admin, an expired invitation). */
  unprocessable: 422,
  /** Too many attempts or requests (`verification_code.exceed_max_try`). */
  throttled: 429,
} as const;
export type DomainErrorKind = keyof typeof domainErrorStatuses;
/** Every status a domain error can be answered with. */
export type DomainErrorStatus = (typeof domainErrorStatuses)[DomainErrorKind] | 409;

/**
 * Codes whose status is not their kind's, because the reference API answers them so: the explicit exceptions to
 * {@link domainErrorStatuses}.
 */
const statusOverrides: Partial<Record<ErrorCode, DomainErrorStatus>> = {
  // A conflict with the sign-in experience's settings; the reference answers this one 409.
  'localization.cannot_delete_default_language': 409,
};

/**
 * A refusal of the domain: its kind (which decides the status), the API's error code (what clients key on; its
 * message is looked up by code in each language when the answer is sent) and the code's data.
 */
export class DomainError extends Error {
  readonly kind: DomainErrorKind;
  readonly code: ErrorCode;
  readonly data: unknown;

  constructor(kind: DomainErrorKind, code: ErrorCode, data?: unknown) {
    super(code);
    this.kind = kind;
    this.code = code;
    this.data = data;
  }
}

/** The HTTP status a domain error is answered with: its kind's, or its code's explicit override. */
export function domainErrorStatus(error: DomainError): DomainErrorStatus {
  return statusOverrides[error.code] ?? domainErrorStatuses[error.kind];
}

/**
 * The three 404s of a missing row, by how the reference misses it (its `buildFindEntityByIdWithPool` and
 * `koa-slonik-error-handler`); each route family answers the one its reference route does (docs/conventions.md):
 * - {@link notFound}: a find by id through the generic finder (roles, applications, resources, organizations' GET…);
 * - {@link rowNotFound}: a hand-written one-row query (`pool.one`: users, whose finder is one) or a delete that removed
 *   nothing (`DeletionError`: `DELETE /organizations/{id}`, a relation's link, a secret or token by name);
 * - {@link nothingUpdated}: an update that matched no row (`UpdateError`: `PATCH /organizations/{id}`, a secret's or
 *   token's new name, a scope's PATCH).
 */
export const notFound = () => new DomainError('not_found', 'entity.not_exists_with_id');
export const rowNotFound = () => new DomainError('not_found', 'entity.not_found');
export const nothingUpdated = () => new DomainError('not_found', 'entity.not_exists');
/** One of the 404s above, for finders shared by reads and writes that answer differently. */
export type Miss = () => DomainError;

/** The failing fields of a zod validation, as the `data` of `guard.invalid_input` lists them. */
export function invalidFields(error: ZodError): InvalidField[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
    code: issue.code,
  }));
}
