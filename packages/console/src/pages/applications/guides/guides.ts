import type { Application } from '@gatehouse/schemas';
import type { CodeLanguage } from '../../../components/CodeEditor/code-editor-props.ts';

export const guideIds = ['react', 'express', 'native', 'm2m'] as const;
export type GuideId = (typeof guideIds)[number];

export function isGuideId(value: string | undefined): value is GuideId {
  return guideIds.some((id) => id === value);
}

/** What a guide fills into its code: this application's values and the tenant's endpoints. */
export type GuideContext = {
  clientId: string;
  issuer: string;
  tokenEndpoint: string;
  managementApi: string;
  managementResource: string;
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** URIs the application does not have yet: the code shows an example, and the guide asks to add it. */
  missing: { redirectUri: boolean; postLogoutRedirectUri: boolean };
};

/** Every step of every guide; its words are the translations `guide_steps.{id}.title|body`. */
export type StepId =
  | 'react_install'
  | 'react_configure'
  | 'react_sign_in'
  | 'react_call_api'
  | 'express_install'
  | 'express_secrets'
  | 'express_configure'
  | 'express_protect'
  | 'native_install'
  | 'native_scheme'
  | 'native_sign_in'
  | 'native_sign_out'
  | 'm2m_prepare'
  | 'm2m_token_curl'
  | 'm2m_token_fetch'
  | 'm2m_call_api';

/** A step's words are translated; its code is code, in no language but its own. */
export type GuideStep = { id: StepId; code?: { language: CodeLanguage; text: string } };

/** Example redirect URIs for an application that has none yet; the guide says to add them in the settings. */
const exampleRedirects = {
  react: { redirect: 'http://localhost:5173/callback', signOut: 'http://localhost:5173' },
  express: { redirect: 'http://localhost:3000/callback', signOut: 'http://localhost:3000' },
  native: { redirect: 'com.example.app://callback', signOut: 'com.example.app://signed-out' },
  m2m: { redirect: '', signOut: '' },
} as const satisfies Record<GuideId, unknown>;

export function guideContext(
  guide: GuideId,
  application: Pick<Application, 'id' | 'oidcClientMetadata'>,
  endpoints: Pick<GuideContext, 'issuer' | 'tokenEndpoint' | 'managementApi' | 'managementResource'>,
): GuideContext {
  const [redirectUri] = application.oidcClientMetadata.redirectUris;
  const [postLogoutRedirectUri] = application.oidcClientMetadata.postLogoutRedirectUris;
  const example = exampleRedirects[guide];
  const usesRedirects = guide !== 'm2m';
  return {
    ...endpoints,
    clientId: application.id,
    redirectUri: redirectUri ?? example.redirect,
    postLogoutRedirectUri: postLogoutRedirectUri ?? signOutExample(guide, redirectUri),
    missing: {
      redirectUri: usesRedirects && redirectUri === undefined,
      postLogoutRedirectUri: usesRedirects && postLogoutRedirectUri === undefined,
    },
  };
}

/** Where a web app returns after signing out when it has no such URI yet: its own home page. */
function signOutExample(guide: GuideId, redirectUri: string | undefined): string {
  const example = exampleRedirects[guide].signOut;
  if (guide === 'native' || !redirectUri) return example;
  const { origin } = new URL(redirectUri);
  return origin === 'null' ? example : `${origin}/`;
}

/** A string as a single-quoted JavaScript literal, so any URI or id is safe inside the example code. */
function js(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A value for a POSIX shell command line, single-quoted. */
function sh(value: string): string {
  return `'${value.replace(/'/g, `'"'"'`)}'`;
}

function reactSteps(c: GuideContext): GuideStep[] {
  return [
    { id: 'react_install', code: { language: 'plain', text: 'npm install oidc-client-ts react-oidc-context' } },
    {
      id: 'react_configure',
      code: {
        language: 'typescript',
        text: `// src/main.tsx
import { createRoot } from 'react-dom/client';
import { AuthProvider } from 'react-oidc-context';
import { App } from './App';

const oidcConfig = {
  authority: ${js(c.issuer)},
  client_id: ${js(c.clientId)},
  redirect_uri: ${js(c.redirectUri)},
  post_logout_redirect_uri: ${js(c.postLogoutRedirectUri)},
  scope: 'openid profile email',
  // Removes ?code=…&state=… from the address bar once the sign-in has completed.
  onSigninCallback: () => window.history.replaceState({}, document.title, window.location.pathname),
};

createRoot(document.getElementById('root')!).render(
  <AuthProvider {...oidcConfig}>
    <App />
  </AuthProvider>,
);`,
      },
    },
    {
      id: 'react_sign_in',
      code: {
        language: 'typescript',
        text: `// src/App.tsx
import { useAuth } from 'react-oidc-context';

export function App() {
  const auth = useAuth();
  if (auth.isLoading) return null;
  if (auth.error) return <p>{auth.error.message}</p>;
  if (!auth.isAuthenticated) {
    return <button onClick={() => void auth.signinRedirect()}>Sign in</button>;
  }
  return (
    <>
      <p>{auth.user?.profile.name ?? auth.user?.profile.sub}</p>
      <button onClick={() => void auth.signoutRedirect()}>Sign out</button>
    </>
  );
}`,
      },
    },
    {
      id: 'react_call_api',
      code: {
        language: 'typescript',
        text: `const response = await fetch('https://api.example.com/orders', {
  headers: { Authorization: \`Bearer \${auth.user?.access_token}\` },
});`,
      },
    },
  ];
}

function expressSteps(c: GuideContext): GuideStep[] {
  const callback = new URL(c.redirectUri);
  return [
    { id: 'express_install', code: { language: 'plain', text: 'npm install express express-openid-connect' } },
    {
      id: 'express_secrets',
      code: {
        language: 'plain',
        text: `# .env — never commit this file
CLIENT_SECRET=<a client secret of this application>
SESSION_SECRET=<a long random string, e.g. from: openssl rand -hex 32>`,
      },
    },
    {
      id: 'express_configure',
      code: {
        language: 'javascript',
        text: `// app.js (run with: node --env-file=.env app.js)
import express from 'express';
import { auth, requiresAuth } from 'express-openid-connect';

const app = express();

app.use(
  auth({
    issuerBaseURL: ${js(c.issuer)},
    baseURL: ${js(callback.origin)},
    clientID: ${js(c.clientId)},
    clientSecret: process.env.CLIENT_SECRET,
    secret: process.env.SESSION_SECRET,
    authRequired: false,
    authorizationParams: { response_type: 'code', scope: 'openid profile email' },
    routes: { callback: ${js(callback.pathname)}, postLogoutRedirect: ${js(postLogoutPath(c, callback.origin))} },
  }),
);`,
      },
    },
    {
      id: 'express_protect',
      code: {
        language: 'javascript',
        text: `// /login and /logout are added by auth(); requiresAuth() sends visitors to sign in first.
app.get('/', (req, res) => {
  res.send(req.oidc.isAuthenticated() ? '<a href="/profile">Profile</a>' : '<a href="/login">Sign in</a>');
});

app.get('/profile', requiresAuth(), (req, res) => {
  res.json(req.oidc.user);
});

app.listen(${callback.port || (callback.protocol === 'https:' ? 443 : 80)});`,
      },
    },
  ];
}

/** The sign-out return path for express-openid-connect, which wants it relative to its base URL. */
function postLogoutPath(c: GuideContext, origin: string): string {
  try {
    const url = new URL(c.postLogoutRedirectUri);
    return url.origin === origin ? url.pathname : url.href;
  } catch {
    return '/';
  }
}

function nativeSteps(c: GuideContext): GuideStep[] {
  const scheme = c.redirectUri.slice(0, c.redirectUri.indexOf(':'));
  return [
    { id: 'native_install', code: { language: 'plain', text: 'npm install react-native-app-auth' } },
    {
      id: 'native_scheme',
      code: {
        language: 'plain',
        text: `// android/app/build.gradle
android {
  defaultConfig {
    manifestPlaceholders = [appAuthRedirectScheme: '${scheme}']
  }
}

<!-- ios/<App>/Info.plist -->
<key>CFBundleURLTypes</key>
<array>
  <dict>
    <key>CFBundleURLSchemes</key>
    <array><string>${scheme}</string></array>
  </dict>
</array>`,
      },
    },
    {
      id: 'native_sign_in',
      code: {
        language: 'typescript',
        text: `import { authorize, logout, refresh } from 'react-native-app-auth';

const config = {
  issuer: ${js(c.issuer)},
  clientId: ${js(c.clientId)},
  redirectUrl: ${js(c.redirectUri)},
  scopes: ['openid', 'profile', 'offline_access'],
};

// Opens the system browser (PKCE is on by default) and returns the tokens.
const session = await authorize(config);

// Later, before the access token expires:
const renewed = await refresh(config, { refreshToken: session.refreshToken });`,
      },
    },
    {
      id: 'native_sign_out',
      code: {
        language: 'typescript',
        text: `await logout(config, {
  idToken: session.idToken,
  postLogoutRedirectUrl: ${js(c.postLogoutRedirectUri)},
});`,
      },
    },
  ];
}

function machineSteps(c: GuideContext): GuideStep[] {
  return [
    { id: 'm2m_prepare' },
    {
      id: 'm2m_token_curl',
      code: {
        language: 'plain',
        text: `curl ${sh(c.tokenEndpoint)} \\
  -u ${sh(`${c.clientId}:`)}"$CLIENT_SECRET" \\
  -d grant_type=client_credentials \\
  -d resource=${sh(c.managementResource)} \\
  -d scope=all`,
      },
    },
    {
      id: 'm2m_token_fetch',
      code: {
        language: 'javascript',
        text: `const credentials = Buffer.from(\`${c.clientId}:\${process.env.CLIENT_SECRET}\`).toString('base64');

const response = await fetch(${js(c.tokenEndpoint)}, {
  method: 'POST',
  headers: { Authorization: \`Basic \${credentials}\` },
  body: new URLSearchParams({
    grant_type: 'client_credentials',
    resource: ${js(c.managementResource)},
    scope: 'all',
  }),
});
const { access_token, expires_in } = await response.json();`,
      },
    },
    {
      id: 'm2m_call_api',
      code: {
        language: 'plain',
        text: `curl ${sh(`${c.managementApi}/applications`)} -H "Authorization: Bearer $ACCESS_TOKEN"`,
      },
    },
  ];
}

const stepsOf: Record<GuideId, (context: GuideContext) => GuideStep[]> = {
  react: reactSteps,
  express: expressSteps,
  native: nativeSteps,
  m2m: machineSteps,
};

/** The steps of a guide with this application's values filled into the code. */
export function guideSteps(guide: GuideId, context: GuideContext): GuideStep[] {
  return stepsOf[guide](context);
}
