import {
  DomainError,
  type DomainErrorKind,
  type DomainErrorStatus,
  domainErrorStatus,
  type ErrorCode,
} from '@gatehouse/schemas';

/** The kind of an error a route names by its status. */
const kindOfStatus: Record<DomainErrorStatus, DomainErrorKind> = {
  400: 'invalid',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  413: 'too_large',
  415: 'unsupported_type',
  422: 'unprocessable',
  429: 'throttled',
};

/**
 * A refusal of the HTTP edge itself (a route, a middleware), which names its status: validation hooks, body limits,
 * a route's own 404. Services, auth, db and billing throw a plain {@link DomainError} instead; both answer
 * `{code, message, data?}`, the message localised when sent.
 */
export class ApiError extends DomainError {
  readonly status: DomainErrorStatus;

  constructor(status: DomainErrorStatus, code: ErrorCode, data?: unknown) {
    super(kindOfStatus[status], code, data);
    this.status = status;
  }
}

/** The status an error of any layer is answered with: the route's own, or its kind's (and its code's override). */
export function httpStatus(error: DomainError): DomainErrorStatus {
  return error instanceof ApiError ? error.status : domainErrorStatus(error);
}
