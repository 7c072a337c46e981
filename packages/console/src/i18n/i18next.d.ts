import type apiResources from './locales/en/api_resources.json';
import type applications from './locales/en/applications.json';
import type auth from './locales/en/auth.json';
import type common from './locales/en/common.json';
import type components from './locales/en/components.json';
import type getStarted from './locales/en/get_started.json';
import type organizations from './locales/en/organizations.json';
import type profile from './locales/en/profile.json';
import type roles from './locales/en/roles.json';
import type users from './locales/en/users.json';

// en is the source language: typing t() from it turns a misspelt key into a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      api_resources: typeof apiResources;
      applications: typeof applications;
      auth: typeof auth;
      common: typeof common;
      components: typeof components;
      get_started: typeof getStarted;
      organizations: typeof organizations;
      profile: typeof profile;
      roles: typeof roles;
      users: typeof users;
    };
  }
}
