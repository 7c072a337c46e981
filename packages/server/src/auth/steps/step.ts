import type { Context, MiddlewareHandler } from 'hono';
import type { Env, OpenInteraction } from '../interaction-context.ts';
import type { StepKit } from './kit.ts';

/**
 * One step of the sign-in (docs/areas/sign-in.md "The steps"): a page or form of the interaction, or an address an
 * identity provider returns to. Every step is one module exporting one of these; `steps/index.ts` lists them in one
 * table and `routes/interaction.ts` only mounts that table. Adding a way to sign in is one new file and one line there.
 */
export type SignInStep = {
  /** The step's name, as the docs and the table say it. */
  name: string;
  /**
   * What it proves: a first factor proves who the user is (it ends in `kit.signedIn`), a second factor the same user
   * again (it ends in the completion), `consent` the user's answer to an application, `nothing` for pages that only
   * lead elsewhere.
   */
  proves: 'identity' | 'second_factor' | 'consent' | 'nothing';
  /** Whether this tenant's sign-in experience offers the step; a step not offered answers as an expired session. */
  offered?: (open: OpenInteraction) => boolean;
  /** Its forms and pages, below the interaction's page (`/interaction/:tenantId/:uid`). */
  routes?: (kit: StepKit) => StepRoute[];
  /** Addresses outside any interaction (an identity provider's fixed callback, metadata), absolute. */
  outside?: (kit: StepKit) => OutsideRoute[];
};

export type StepHandler = (c: Context<Env>) => Response | Promise<Response>;

export type StepRoute = {
  method: 'get' | 'post';
  /** Below the interaction's page: '' for the page itself, '/login', '/sso/:connectorId'. */
  path: string;
  /** The prompt the interaction must be at (`login` for the sign-in forms); any prompt when absent. */
  prompt?: 'login' | 'consent';
  /** Checks before the interaction is opened (the welcome step's edition check, a body limit). */
  before?: MiddlewareHandler<Env>[];
  handler: StepHandler;
};

export type OutsideRoute = {
  method: 'get' | 'post';
  path: string;
  before?: MiddlewareHandler<Env>[];
  handler: StepHandler;
};
