import { Hono, type MiddlewareHandler } from 'hono';
import type { Env } from '../auth/interaction-context.ts';
import { productLook } from '../auth/sign-in-look.ts';
import { renderMessagePage, SIGN_IN_STYLESHEET_PATH, signInStylesheet } from '../auth/sign-in-page.ts';
import { SIGN_IN_SCRIPT_PATH, signInScript } from '../auth/sign-in-script.ts';
import { signInSteps } from '../auth/steps/index.ts';
import { createStepKit, type StepDeps } from '../auth/steps/kit.ts';
import type { OutsideRoute, SignInStep, StepRoute } from '../auth/steps/step.ts';
import { brandingOverlay, tenantThemeStylesheet } from '../auth/tenant-look.ts';
import { pageInputGuard } from '../http/input-guard.ts';
import { readSignInExperienceSettings } from '../services/sign-in-experience.ts';
import { sendHtml } from '../shared/html.ts';

/**
 * The sign-in pages oidc-provider sends users to (`/interaction/{tenantId}/{uid}` and its steps), and the addresses
 * identity providers return to. The steps are the table of auth/steps/index.ts; this module mounts it: each route of
 * a step behind its checks, the interaction guard (the interaction exists, belongs to this browser and is at the
 * step's prompt) and whether the tenant offers the step.
 */
export function interactionRoutes(deps: StepDeps, steps: readonly SignInStep[] = signInSteps) {
  const app = new Hono<Env>();
  const kit = createStepKit(deps);
  const { tenants } = deps;

  // A NUL character or a broken escape in the URL or a posted form: a page saying so, before any step or tenant
  // lookup sees it (issue 37 item 8). In the product's look: the tenant in the path may be what is broken. On the
  // addresses outside an interaction it runs after their own checks, so the SAML callback's body limit applies
  // before the form is read.
  const unreadable = pageInputGuard<Env>((c) => {
    const look = productLook(c.get('language'));
    return sendHtml(c, renderMessagePage(look, look.text('request_unreadable')), 400);
  });

  // Versioned by its content in the pages' links (auth/sign-in-page.ts): cached for good.
  app.get(SIGN_IN_SCRIPT_PATH, (c) => {
    c.header('Cache-Control', c.req.query('v') ? 'public, max-age=31536000, immutable' : 'no-cache');
    return c.body(signInScript, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });

  app.get(SIGN_IN_STYLESHEET_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(signInStylesheet, 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  // The tenant's colours and custom CSS, with the overlay the page names (`?organization=`, `?application=`);
  // versioned by the pages' links.
  app.get('/interaction/:tenantId/theme.css', unreadable, async (c) => {
    const tenant = tenants.of(c.req.param('tenantId'));
    const settings = await readSignInExperienceSettings(tenant);
    const overlay = await brandingOverlay(tenant, {
      organizationId: c.req.query('organization'),
      applicationId: c.req.query('application')?.slice(0, 21),
    });
    c.header('Cache-Control', c.req.query('v') ? 'public, max-age=31536000, immutable' : 'no-cache');
    return c.body(tenantThemeStylesheet(settings, overlay), 200, { 'Content-Type': 'text/css; charset=utf-8' });
  });

  // Hono's overloads type a fixed number of handlers; the list here varies with the route's checks.
  const on = (method: 'get' | 'post', path: string, handlers: MiddlewareHandler<Env>[]) =>
    (app[method] as (path: string, ...handlers: MiddlewareHandler<Env>[]) => unknown)(path, ...handlers);

  const mount = (step: SignInStep, route: StepRoute) => {
    const offered: MiddlewareHandler<Env> = async (c, next) => {
      if (step.offered && !step.offered(c.get('interaction'))) return kit.expired(c);
      await next();
    };
    const handler: MiddlewareHandler<Env> = async (c) => route.handler(c);
    on(route.method, `/interaction/:tenantId/:uid${route.path}`, [
      unreadable,
      ...(route.before ?? []),
      kit.open(route.prompt),
      offered,
      handler,
    ]);
  };
  const mountOutside = (route: OutsideRoute) => {
    const handler: MiddlewareHandler<Env> = async (c) => route.handler(c);
    on(route.method, route.path, [...(route.before ?? []), unreadable, handler]);
  };

  for (const step of steps) {
    for (const route of step.routes?.(kit) ?? []) mount(step, route);
    for (const route of step.outside?.(kit) ?? []) mountOutside(route);
  }
  return app;
}
