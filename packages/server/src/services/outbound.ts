import { type LookupAddress, lookup } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, Response as UndiciResponse, fetch as undiciFetch } from 'undici';

/**
 * Where requests that tenants aim (webhooks, connectors, identity providers, scripts' `fetch`) may go. In the cloud edition any account can
 * type a URL, so addresses inside the operator's network are refused: loopback, private, link-local (the cloud
 * metadata service at 169.254.169.254), carrier-grade NAT, unspecified, multicast and reserved ranges, in IPv4 and
 * IPv6. The check runs on the address the connection is made to, after DNS resolution, so a name that resolves to a
 * public address when saved and to 127.0.0.1 when used (DNS rebinding) is refused too, and so is every redirect's hop.
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

/**
 * The name resolver of every outbound request (the client's connections and `outboundAddress`). The policy's tests
 * swap `lookup` for a hostile DNS zone and put it back after (test/outbound-matrix.test.ts; the server suite shares
 * one module graph per worker, so a module mock would not reach this file); nothing else changes it.
 */
export const outboundResolver: { lookup: typeof lookup } = { lookup };

const lookupAll = (hostname: string) =>
  new Promise<LookupAddress[]>((resolve, reject) =>
    outboundResolver.lookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** URL host without IPv6 brackets. */
const bareHost = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The limits every outbound request shares (issue 39): how long a connection, the answer's headers and its body may
 * take, and how large an answer may be. Redirects follow fetch's rules (at most 20), each hop checked like the first.
 */
export const OUTBOUND_LIMITS = {
  connectMs: 5_000,
  headersMs: 10_000,
  bodyMs: 10_000,
  /** The whole request, when the caller gives no signal of its own. */
  totalMs: 15_000,
  /** Larger answers fail while being read: nothing Gatehouse fetches (metadata, discovery, JSON) is this large. */
  maxBodyBytes: 2 * 1024 * 1024,
  /** How much of a foreign answer may reach an API client or a log (error details, delivery attempts). */
  excerptChars: 200,
} as const;

/** A foreign server's text cut to {@link OUTBOUND_LIMITS.excerptChars}: all of it an API client may see. */
export function excerpt(text: string, chars: number = OUTBOUND_LIMITS.excerptChars): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}

/**
 * Why a request never got an answer, in one line: the innermost cause — the outbound policy's refusal, the socket's
 * error, the timeout — rather than the wrappers' "fetch failed" (undici) or "something went wrong" (openid-client).
 * Cut to an excerpt: a cause can carry a foreign server's words.
 */
export function networkFailure(error: unknown): string {
  let inner = error;
  for (let depth = 0; depth < 8 && inner instanceof Error; depth += 1) {
    if (inner.name === 'TimeoutError') return 'The server did not answer in time.';
    if (inner instanceof OutboundAddressRefused) return inner.message;
    if (!(inner.cause instanceof Error)) break;
    inner = inner.cause;
  }
  return excerpt(inner instanceof Error ? inner.message : String(inner));
}

/**
 * Whether `error` is (or wraps, as openid-client does) a request that got no answer: the policy's refusal, a timeout,
 * or undici's "fetch failed" around a socket or DNS error.
 */
export function isNetworkFailure(error: unknown): boolean {
  let inner = error;
  for (let depth = 0; depth < 8 && inner instanceof Error; depth += 1) {
    if (inner instanceof OutboundAddressRefused || inner.name === 'TimeoutError') return true;
    if (inner instanceof TypeError && inner.message === 'fetch failed') return true;
    inner = inner.cause;
  }
  return false;
}

/** Refused while reading: the answer is larger than {@link OUTBOUND_LIMITS.maxBodyBytes}. */
export class OutboundAnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`The answer is larger than ${limit} bytes; Gatehouse stopped reading it.`);
    this.name = 'OutboundAnswerTooLarge';
  }
}

/** The answer with its body cut off (an error while reading) past `limit` bytes. */
function capped(response: UndiciResponse, limit: number): UndiciResponse {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (!response.body || (Number.isFinite(declared) && declared <= limit)) return response;
  let seen = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > limit) controller.error(new OutboundAnswerTooLarge(limit));
      else controller.enqueue(chunk);
    },
  });
  const limited = new UndiciResponse(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  Object.defineProperties(limited, { url: { value: response.url }, redirected: { value: response.redirected } });
  return limited;
}

/** One fetch per policy object: its connection pool is shared by every request under that policy. */
const clients = new WeakMap<OutboundPolicy, typeof undiciFetch>();

/**
 * The one outbound client: `fetch` for every request Gatehouse sends to a URL it was given (webhooks, HTTP and
 * social connectors, SSO discovery, token and userinfo calls, SAML metadata, custom JWT `fetch`, captcha, the
 * breached-password check). Under a policy that refuses private addresses, the address is checked where the
 * connection is made, on every hop of a redirect: a literal address before connecting, a name on every address it
 * resolves to (so DNS rebinding is refused too). A refusal rejects with {@link OutboundAddressRefused} (as the
 * `cause` of undici's TypeError when it happens while connecting). Every request gets the same timeouts, and
 * answers larger than {@link OUTBOUND_LIMITS.maxBodyBytes} fail while being read.
 */
export function outboundFetch(policy: OutboundPolicy): typeof undiciFetch {
  const known = clients.get(policy);
  if (known) return known;
  const allowed = allowListOf(policy);
  const checkedLookup: LookupFunction = (hostname, options, callback) => {
    outboundResolver.lookup(hostname, { ...options, all: true }, (error, resolved: LookupAddress[]) => {
      if (error) return callback(error, '', 4);
      const refused = policy.denyPrivate ? refusedAmong(allowed, hostname, resolved) : undefined;
      if (refused) return callback(new OutboundAddressRefused(refused.address), '', 4);
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, resolved);
      const [first] = resolved;
      if (!first) return callback(new Error(`${hostname} has no address`), '', 4);
      return callback(null, first.address, first.family);
    });
  };
  const connect = buildConnector({ timeout: OUTBOUND_LIMITS.connectMs, lookup: checkedLookup });
  // Every connection, the first hop's and each redirect's, passes here: a literal address never reaches `lookup`.
  const checkedConnect: buildConnector.connector = (options, callback) => {
    const host = options.hostname.replace(/^\[|\]$/g, '');
    if (policy.denyPrivate && isIP(host) !== 0 && refusesLiteral(allowed, host)) {
      callback(new OutboundAddressRefused(host), null);
      return;
    }
    connect(options, callback);
  };
  const dispatcher = new Agent({
    connect: checkedConnect,
    headersTimeout: OUTBOUND_LIMITS.headersMs,
    bodyTimeout: OUTBOUND_LIMITS.bodyMs,
  });
  const client = (async (input, init) => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const host = bareHost(url);
    if (policy.denyPrivate && isIP(host) !== 0 && refusesLiteral(allowed, host)) {
      throw new OutboundAddressRefused(host);
    }
    const response = await undiciFetch(input, {
      ...init,
      signal: init?.signal ?? AbortSignal.timeout(OUTBOUND_LIMITS.totalMs),
      dispatcher,
    });
    return capped(response, OUTBOUND_LIMITS.maxBodyBytes);
  }) as typeof undiciFetch;
  clients.set(policy, client);
  return client;
}
