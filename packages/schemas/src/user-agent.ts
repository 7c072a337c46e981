/**
 * The browser and the operating system a user agent names, as people call them, for a passkey's first name ("Chrome
 * on macOS": the server's when a passkey is made at sign-in, the console's offer when one is added from the profile).
 */
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
