import type auth from './locales/en/auth.json';
import type common from './locales/en/common.json';
import type components from './locales/en/components.json';
import type getStarted from './locales/en/get_started.json';
import type profile from './locales/en/profile.json';

// en is the source language: typing t() from it turns a misspelt key into a compile error.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: {
      auth: typeof auth;
      common: typeof common;
      components: typeof components;
      get_started: typeof getStarted;
      profile: typeof profile;
    };
  }
}
