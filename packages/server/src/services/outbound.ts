import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';

/**
 * Where requests that tenants aim (webhooks today, HTTP connectors next) may go. In the cloud edition any account can
 * type a URL, so addresses inside the operator's network are refused: loopback, private, link-local (the cloud
 * metadata service at 169.254.169.254), carrier-grade NAT, unspecified, multicast and reserved ranges, in IPv4 and
 * IPv6. The check runs on the address the connection is made to, after DNS resolution, so a name that resolves to a
 * public address when saved and to 127.0.0.1 when used (DNS rebinding) is refused too; redirects are never followed.
 * `allowList` names the hosts, addresses or CIDR ranges an operator still allows (an internal receiver).
 */
export type OutboundPolicy = {
  denyPrivate: boolean;
  /** Host names (lower case), IP addresses and CIDR ranges that are allowed even when private. */
  allowList: readonly string[];
};

/** The default of each edition: OSS trusts its admins with their own network, cloud does not (docs/security.md). */
export const allowAllOutbound: OutboundPolicy = { denyPrivate: false, allowList: [] };

const forbidden = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-mapped and translated addresses can carry any IPv4 address: the embedded one is checked instead.
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  forbidden.addSubnet(network, prefix, 'ipv6');
}

/** The 8 groups of an IPv6 address as numbers (`::` expanded, a dotted IPv4 tail converted). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((group) => Number.parseInt(group || '0', 16));
}

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96) or NAT64 (64:ff9b::/96) IPv6 address, if it is one. */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const prefix = groups.slice(0, 6);
  const mapped = prefix.slice(0, 5).every((group) => group === 0) && prefix[5] === 0xffff;
  const nat64 = prefix[0] === 0x64 && prefix[1] === 0xff9b && prefix.slice(2).every((group) => group === 0);
  if (!mapped && !nat64) return undefined;
  const [high = 0, low = 0] = groups.slice(6);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
}

/** Whether an address lies in a range a tenant's request may not reach. */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return forbidden.check(address, 'ipv4');
  if (family !== 6) return true;
  const inner = embeddedIpv4(address);
  if (inner) return forbidden.check(inner, 'ipv4');
  return forbidden.check(address, 'ipv6');
}

/** Refused before any byte is sent; its message says why, for the attempt log and the console. */
export class OutboundAddressRefused extends Error {
  constructor(address: string) {
    super(
      `The address ${address} is in a private, loopback, link-local or reserved range; Gatehouse does not send there. An operator can allow it with OUTBOUND_ALLOW_LIST.`,
    );
    this.name = 'OutboundAddressRefused';
  }
}

function allowListOf(policy: OutboundPolicy) {
  const hosts = new Set<string>();
  const addresses = new BlockList();
  for (const entry of policy.allowList) {
    const [network = '', prefix] = entry.split('/');
    const family = isIP(network);
    if (family === 0) hosts.add(entry.toLowerCase());
    else if (prefix === undefined) addresses.addAddress(network, family === 4 ? 'ipv4' : 'ipv6');
    else addresses.addSubnet(network, Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  }
  return {
    host: (hostname: string) => hosts.has(hostname.toLowerCase()),
    address: (address: string) => {
      const family = isIP(address);
      return family !== 0 && addresses.check(address, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/** Whether the policy refuses a literal address (one that needs no lookup). */
const refusesLiteral = (allowed: ReturnType<typeof allowListOf>, host: string) =>
  isForbiddenAddress(host) && !allowed.address(host) && !allowed.host(host);

/** The first of `resolved` that the policy refuses for `hostname`, if any (an allowed host name allows them all). */
function refusedAmong(allowed: ReturnType<typeof allowListOf>, hostname: string, resolved: readonly LookupAddress[]) {
  if (allowed.host(hostname)) return undefined;
  return resolved.find((entry) => isForbiddenAddress(entry.address) && !allowed.address(entry.address));
}

/**
 * For protocols other than HTTP (SMTP today): the address a connection to `hostname` must be made to under `policy`.
 * A literal address is checked as it is; a name is resolved once, every address it has is checked, and the caller
 * connects to the address returned (so a second lookup cannot answer differently, as DNS rebinding would), keeping
 * the name for TLS (SNI and the certificate check). Without the private-range rule, the name itself is returned.
 * Rejects with {@link OutboundAddressRefused}.
 */
export function outboundAddress(policy: OutboundPolicy): (hostname: string) => Promise<string> {
  if (!policy.denyPrivate) return async (hostname) => hostname;
  const allowed = allowListOf(policy);
  return async (hostname) => {
    const host = hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) {
      if (refusesLiteral(allowed, host)) throw new OutboundAddressRefused(host);
      return host;
    }
    const resolved = await lookupAll(host);
    const refused = refusedAmong(allowed, host, resolved);
    if (refused) throw new OutboundAddressRefused(refused.address);
    const [first] = resolved;
    if (!first) throw new Error(`${host} has no address`);
    return first.address;
  };
}

const lookupAll = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    lookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** URL host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * `fetch` for requests a tenant aims, under `policy`: the destination is checked on the literal address of the URL,
 * or else on every address its name resolves to at connection time. A refusal rejects with
 * {@link OutboundAddressRefused} (as the `cause` of undici's TypeError when it happens while connecting).
 */
export function outboundFetch(policy: OutboundPolicy): typeof undiciFetch {
  if (!policy.denyPrivate) return undiciFetch;
  const allowed = allowListOf(policy);
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, resolved: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = refusedAmong(allowed, hostname, resolved);
      if (refused) return callback(new OutboundAddressRefused(refused.address), '', 4);
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, resolved);
      const [first] = resolved;
      if (!first) return callback(new Error(`${hostname} has no address`), '', 4);
      return callback(null, first.address, first.family);
    });
  };
  const dispatcher = new Agent({ connect: { lookup: checkedLookup } });
  return ((input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const host = bareHost(url);
    if (isIP(host) !== 0 && refusesLiteral(allowed, host)) {
      return Promise.reject(new OutboundAddressRefused(host));
    }
    return undiciFetch(input, { ...init, dispatcher });
  }) as typeof undiciFetch;
}
