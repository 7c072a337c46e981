import { userAgentParts } from '@gatehouse/schemas';
import { describe, expect, it } from 'vitest';
import { defaultPasskeyName } from './passkey-name.ts';

const agents = {
  chromeLinux: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  edgeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  safariIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeIphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:132.0) Gecko/132.0 Firefox/132.0',
  samsungAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
  chromeOs:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  operaWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
};

const both = ({ browser, os }: { browser: string; os: string }) => `${browser} on ${os}`;

describe('userAgentParts', () => {
  it.each([
    ['chromeLinux', 'Chrome', 'Linux'],
    ['edgeWindows', 'Edge', 'Windows'],
    ['safariMac', 'Safari', 'macOS'],
    ['safariIphone', 'Safari', 'iOS'],
    ['chromeIphone', 'Chrome', 'iOS'],
    ['firefoxAndroid', 'Firefox', 'Android'],
    ['samsungAndroid', 'Samsung Internet', 'Android'],
    ['chromeOs', 'Chrome', 'ChromeOS'],
    ['operaWindows', 'Opera', 'Windows'],
  ] as const)('reads %s as %s on %s', (agent, browser, os) => {
    expect(userAgentParts(agents[agent])).toEqual({ browser, os });
  });
});

describe('defaultPasskeyName', () => {
  it('words the pair in the interface language', () => {
    expect(defaultPasskeyName(agents.chromeLinux, both, 'Passkey')).toBe('Chrome on Linux');
    expect(defaultPasskeyName(agents.chromeLinux, ({ browser, os }) => `${os} の ${browser}`, 'パスキー')).toBe(
      'Linux の Chrome',
    );
  });

  it('falls back to what is known, then to the given word', () => {
    expect(defaultPasskeyName('Mozilla/5.0 (X11; Linux x86_64) SomeBrowser/1.0', both, 'Passkey')).toBe('Linux');
    expect(defaultPasskeyName('curl/8.0', both, 'Passkey')).toBe('Passkey');
  });

  it('stays within the length of a passkey name', () => {
    expect(defaultPasskeyName(agents.chromeLinux, () => 'x'.repeat(100), 'Passkey')).toHaveLength(64);
  });
});
