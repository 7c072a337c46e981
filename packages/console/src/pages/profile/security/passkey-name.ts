import { webAuthnNameSchema } from '@gatehouse/schemas';

/** The browser and the system a user agent names, as people call them ('Chrome', 'macOS'); undefined when unknown. */
export type UserAgentParts = { browser?: string; os?: string };

// Order matters: Edge, Opera and Samsung Internet say 'Chrome' too, and Chrome says 'Safari'.
const browsers: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChrome\/|\bCriOS\/|\bChromium\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];

// Android and ChromeOS say 'Linux' too; iPadOS may say 'Macintosh' (then it is taken for macOS, as Safari means).
const systems: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b|\bX11\b/, 'Linux'],
];

const first = (userAgent: string, table: ReadonlyArray<readonly [RegExp, string]>) =>
  table.find(([pattern]) => pattern.test(userAgent))?.[1];

export function userAgentParts(userAgent: string): UserAgentParts {
  const browser = first(userAgent, browsers);
  const os = first(userAgent, systems);
  return { ...(browser && { browser }), ...(os && { os }) };
}

/**
 * The name a new passkey is offered ('Chrome on Linux'), which the user may change: where it was made tells passkeys
 * apart in the list. `both` words the pair in the interface language; `fallback` is for a user agent that says
 * nothing known. Cut to the names' length limit.
 */
export function defaultPasskeyName(
  userAgent: string,
  both: (parts: { browser: string; os: string }) => string,
  fallback: string,
): string {
  const { browser, os } = userAgentParts(userAgent);
  const name = browser && os ? both({ browser, os }) : (browser ?? os ?? fallback);
  const max = webAuthnNameSchema.maxLength ?? 64;
  return name.slice(0, max);
}
