import {
  type Language,
  type SsoConnectorProvider,
  type SsoProviderName,
  ssoProviderNames,
  ssoProviderTypeOf,
} from '@gatehouse/schemas';

/**
 * The enterprise IdPs a tenant can connect (GET /sso-connector-providers). Names are brands or protocols and stay as
 * they are; descriptions are one of two sentences per language: any IdP speaking a protocol, or a named provider over
 * a protocol. Logos are the console's connector logo files (pages/connectors/connector-logos.ts draws them).
 */
const providers: Record<SsoProviderName, { name: string; brand?: string; logo: string }> = {
  OIDC: { name: 'OIDC', logo: 'oidc' },
  SAML: { name: 'SAML', logo: 'saml' },
  AzureAD: { name: 'Microsoft Entra ID (SAML)', brand: 'Microsoft Entra ID', logo: 'microsoft' },
  AzureAdOidc: { name: 'Microsoft Entra ID (OIDC)', brand: 'Microsoft Entra ID', logo: 'microsoft' },
  GoogleWorkspace: { name: 'Google Workspace', brand: 'Google Workspace', logo: 'google' },
  Okta: { name: 'Okta', brand: 'Okta', logo: 'okta' },
};

const protocolNames = { OIDC: 'OpenID Connect', SAML: 'SAML 2.0' } as const;

/** `{protocol}` and `{provider}` are filled in. */
const sentences: Record<Language, { generic: string; preset: string }> = {
  en: {
    generic: 'Any identity provider that supports {protocol}.',
    preset: 'Sign in with {provider} accounts over {protocol}.',
  },
  ar: { generic: 'أي موفر هوية يدعم {protocol}.', preset: 'تسجيل الدخول بحسابات {provider} عبر {protocol}.' },
  de: {
    generic: 'Jeder Identitätsanbieter, der {protocol} unterstützt.',
    preset: 'Anmeldung mit {provider}-Konten über {protocol}.',
  },
  es: {
    generic: 'Cualquier proveedor de identidad compatible con {protocol}.',
    preset: 'Inicio de sesión con cuentas de {provider} mediante {protocol}.',
  },
  fr: {
    generic: 'Tout fournisseur d’identité compatible {protocol}.',
    preset: 'Connexion avec les comptes {provider} via {protocol}.',
  },
  it: {
    generic: 'Qualsiasi provider di identità che supporta {protocol}.',
    preset: 'Accesso con gli account {provider} tramite {protocol}.',
  },
  ja: {
    generic: '{protocol} に対応した任意の ID プロバイダー。',
    preset: '{protocol} で {provider} アカウントを使ってサインインします。',
  },
  ko: {
    generic: '{protocol}을(를) 지원하는 모든 ID 공급자.',
    preset: '{protocol}을(를) 통해 {provider} 계정으로 로그인합니다.',
  },
  'pl-PL': {
    generic: 'Dowolny dostawca tożsamości obsługujący {protocol}.',
    preset: 'Logowanie kontami {provider} przez {protocol}.',
  },
  'pt-BR': {
    generic: 'Qualquer provedor de identidade compatível com {protocol}.',
    preset: 'Login com contas do {provider} via {protocol}.',
  },
  'pt-PT': {
    generic: 'Qualquer fornecedor de identidade compatível com {protocol}.',
    preset: 'Início de sessão com contas {provider} através de {protocol}.',
  },
  ru: {
    generic: 'Любой поставщик удостоверений с поддержкой {protocol}.',
    preset: 'Вход с учётными записями {provider} через {protocol}.',
  },
  'tr-TR': {
    generic: '{protocol} destekleyen herhangi bir kimlik sağlayıcı.',
    preset: '{protocol} üzerinden {provider} hesaplarıyla oturum açma.',
  },
  'zh-CN': { generic: '任何支持 {protocol} 的身份提供商。', preset: '通过 {protocol} 使用 {provider} 账号登录。' },
  'zh-HK': { generic: '任何支援 {protocol} 的身份提供者。', preset: '透過 {protocol} 使用 {provider} 帳戶登入。' },
  'zh-TW': { generic: '任何支援 {protocol} 的身分識別提供者。', preset: '透過 {protocol} 使用 {provider} 帳號登入。' },
};

const logoUrl = (name: string) => `/console/connectors/${name}.svg`;

/** One provider as the catalogue answers it, in the caller's language. */
export function ssoProvider(providerName: SsoProviderName, language: Language): SsoConnectorProvider {
  const provider = providers[providerName];
  const providerType = ssoProviderTypeOf[providerName];
  const sentence = sentences[language] ?? sentences.en;
  const description = (provider.brand ? sentence.preset : sentence.generic)
    .replace('{protocol}', protocolNames[providerType])
    .replace('{provider}', provider.brand ?? '');
  return {
    providerName,
    providerType,
    name: provider.name,
    description,
    logo: logoUrl(provider.logo),
    logoDark: null,
  };
}

/** GET /sso-connector-providers: generic protocols first, then the presets. */
export function ssoProviderCatalogue(language: Language): SsoConnectorProvider[] {
  return ssoProviderNames.map((name) => ssoProvider(name, language));
}
