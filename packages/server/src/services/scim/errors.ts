/**
 * SCIM errors (RFC 7644 §3.12): the status, and for a 400 or 409 the `scimType` naming what was wrong. The SCIM edge
 * (routes/scim.ts) answers them as `{schemas: [Error], status: "<code>", scimType?, detail}`.
 */

export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export class ScimError extends Error {
  readonly status: number;
  readonly scimType: ScimType | undefined;

  constructor(status: number, scimType: ScimType | undefined, detail: string) {
    super(detail);
    this.status = status;
    this.scimType = scimType;
  }
}

/** 400 with a `scimType`. */
export const badRequest = (scimType: ScimType, detail: string) => new ScimError(400, scimType, detail);
export const scimNotFound = (detail = 'No such resource.') => new ScimError(404, undefined, detail);
export const conflict = (detail: string) => new ScimError(409, 'uniqueness', detail);

export type ScimErrorBody = { schemas: string[]; status: string; scimType?: ScimType; detail: string };

export function scimErrorBody(status: number, scimType: ScimType | undefined, detail: string): ScimErrorBody {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}
