import { isBuiltInResourceIndicator, MANAGEMENT_API_ROLE } from '@gatehouse/schemas';
import { guard, object, type Parser, string } from '../../api/json-guards.ts';

/** The checklist, in the order a new tenant usually sets things up. */
export const stepKeys = [
  'application',
  'api_resource',
  'role',
  'user',
  'sign_in_experience',
  'sign_in',
  'organization',
  'webhook',
] as const;
export type StepKey = (typeof stepKeys)[number];

// Guards, not zod schemas: this is the OSS landing page, and the first page does without zod (api/json-guards.ts).
const anyRow = guard(object({ id: string }));
const resourceRow = guard(object({ id: string, indicator: string }));
const roleRow = guard(object({ id: string, name: string }));
type RowOf<P> = P extends Parser<infer T> ? T : never;

/**
 * How each step reads the tenant's real state: one small list call of the management API. `isDone` judges the
 * first page and its total; `todo` and `done` are where the step's link goes (tenant-relative).
 */
export type StepCheck<T = unknown> = {
  key: StepKey;
  path: string;
  schema: Parser<T>;
  isDone: (rows: T[], total: number) => boolean;
  todo: string;
  done: string;
};

const exists = (_rows: unknown[], total: number) => total > 0;

export const stepChecks: readonly StepCheck[] = [
  {
    key: 'application',
    path: '/applications?page=1&page_size=1',
    schema: anyRow,
    isDone: exists,
    todo: 'applications/create',
    done: 'applications',
  },
  {
    key: 'api_resource',
    // Built-in APIs (the management API) are listed too but are not the tenant's own: one of its own is needed.
    path: '/resources?page=1&page_size=20',
    schema: resourceRow,
    isDone: (rows: RowOf<typeof resourceRow>[], total) =>
      rows.some((row) => !isBuiltInResourceIndicator(row.indicator)) || total > rows.length,
    todo: 'api-resources/create',
    done: 'api-resources',
  } as StepCheck,
  {
    key: 'role',
    // Every tenant is seeded with the machine-to-machine 'Management API access' role; it is not one of the tenant's.
    path: '/roles?page=1&page_size=20',
    schema: roleRow,
    isDone: (rows: RowOf<typeof roleRow>[], total) =>
      rows.some((row) => row.name !== MANAGEMENT_API_ROLE) || total > rows.length,
    todo: 'roles/create',
    done: 'roles',
  } as StepCheck,
  {
    key: 'user',
    path: '/users?page=1&page_size=1',
    schema: anyRow,
    isDone: exists,
    todo: 'users/create',
    done: 'users',
  },
  {
    key: 'sign_in_experience',
    // Customized once the tenant has saved its sign-in experience (the audit log has the change).
    path: '/logs?page=1&page_size=1&logKey=Admin.SignInExperience.Updated',
    schema: anyRow,
    isDone: exists,
    todo: 'sign-in-experience',
    done: 'sign-in-experience',
  },
  {
    key: 'sign_in',
    path: '/logs?page=1&page_size=1&logKey=Interaction.SignIn.Submit&result=Success',
    schema: anyRow,
    isDone: exists,
    todo: 'users',
    done: 'audit-logs?logKey=Interaction.SignIn.Submit&result=success',
  },
  {
    key: 'organization',
    path: '/organizations?page=1&page_size=1',
    schema: anyRow,
    isDone: exists,
    todo: 'organizations/create',
    done: 'organizations',
  },
  {
    key: 'webhook',
    path: '/hooks?page=1&page_size=1',
    schema: anyRow,
    isDone: exists,
    todo: 'webhooks/create',
    done: 'webhooks',
  },
];

/** Done steps over all steps, as a whole percentage for the progress bar. */
export function progressOf(done: number, total: number): number {
  return total === 0 ? 0 : Math.round((done / total) * 100);
}

/**
 * The look of each step's action (issue 26: one primary action per view): the first step still to do is the primary
 * action, later steps to do are secondary, done steps tertiary (they only lead to where the thing is). `done` holds
 * each step's state, undefined while it is being checked.
 */
export function stepActionVariants(done: readonly (boolean | undefined)[]): ('primary' | 'default' | 'text')[] {
  const next = done.indexOf(false);
  return done.map((isDone, index) => (isDone ? 'text' : index === next ? 'primary' : 'default'));
}
