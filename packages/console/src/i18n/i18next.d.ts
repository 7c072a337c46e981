import type apiResources from './locales/en/api_resources.json';
import type applications from './locales/en/applications.json';
import type auditLogs from './locales/en/audit_logs.json';
import type auth from './locales/en/auth.json';
import type common from './locales/en/common.json';
import type components from './locales/en/components.json';
import type componentsExtra from './locales/en/components_extra.json';
import type connectors from './locales/en/connectors.json';
import type customizeJwt from './locales/en/customize_jwt.json';
import type dashboard from './locales/en/dashboard.json';
import type domains from './locales/en/domains.json';
import type enterpriseSso from './locales/en/enterprise_sso.json';
import type getStarted from './locales/en/get_started.json';
import type mfa from './locales/en/mfa.json';
import type organizationTemplate from './locales/en/organization_template.json';
import type organizations from './locales/en/organizations.json';
import type plans from './locales/en/plans.json';
import type profile from './locales/en/profile.json';
import type quota from './locales/en/quota.json';
import type roles from './locales/en/roles.json';
import type security from './locales/en/security.json';
import type signInExperience from './locales/en/sign_in_experience.json';
import type signingKeys from './locales/en/signing_keys.json';
import type subscription from './locales/en/subscription.json';
import type tenantSettings from './locales/en/tenant_settings.json';
import type tenants from './locales/en/tenants.json';
import type users from './locales/en/users.json';
import type webhooks from './locales/en/webhooks.json';

// en is the source language: typing t() from it turns a misspelt key into a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      api_resources: typeof apiResources;
      applications: typeof applications;
      audit_logs: typeof auditLogs;
      auth: typeof auth;
      common: typeof common;
      components: typeof components;
      components_extra: typeof componentsExtra;
      connectors: typeof connectors;
      customize_jwt: typeof customizeJwt;
      dashboard: typeof dashboard;
      domains: typeof domains;
      enterprise_sso: typeof enterpriseSso;
      get_started: typeof getStarted;
      organization_template: typeof organizationTemplate;
      organizations: typeof organizations;
      plans: typeof plans;
      profile: typeof profile;
      quota: typeof quota;
      roles: typeof roles;
      mfa: typeof mfa;
      security: typeof security;
      sign_in_experience: typeof signInExperience;
      signing_keys: typeof signingKeys;
      subscription: typeof subscription;
      tenant_settings: typeof tenantSettings;
      tenants: typeof tenants;
      users: typeof users;
      webhooks: typeof webhooks;
    };
  }
}
