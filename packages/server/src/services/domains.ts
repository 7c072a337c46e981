import { randomBytes } from 'node:crypto';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup, Resolver } from 'node:dns/promises';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import {
  type Domain,
  type DomainDnsRecord,
  DomainError,
  type DomainStatus,
  type domainCreateSchema,
  generateId,
  notFound,
} from '@gatehouse/schemas';
import { count, desc, eq, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Config } from '../config.ts';
import { allOf } from '../db/conditions.ts';
import { domains } from '../db/tables.ts';
import type { TenantDb } from '../db/tenant-db.ts';
import { performWrite, type WriteContext } from './write-path.ts';

type DomainCreate = z.output<typeof domainCreateSchema>;

/**
 * Custom domains: the records an owner publishes, and the check that moves a domain through the spec §4 statuses.
 * PendingVerification (ownership TXT or routing CNAME not there yet) → PendingSsl (both right, HTTPS not yet
 * answering with a valid certificate) → Active; Error when the domain's DNS points somewhere else.
 */

export type DomainRow = typeof domains.$inferSelect;
type CheckConfig = Config['customDomains'];

/** A non-Active domain is checked again on read when its last check is older than this. */
export const DOMAIN_RECHECK_MS = 10_000;
/** The whole TLS probe (connect, handshake, answer) must finish within this. */
const TLS_PROBE_TIMEOUT_MS = 5_000;
/** Per DNS query: 2 s, two tries, so a dead resolver costs a read at most a few seconds. */
const RESOLVER_OPTIONS = { timeout: 2_000, tries: 2 };
const CHALLENGE_LABEL = '_gatehouse-challenge';

export const challengeName = (domain: string) => `${CHALLENGE_LABEL}.${domain}`;

/** The ownership token, published by the owner as a TXT record; random, so it proves control of the zone. */
export const newVerificationToken = () => randomBytes(24).toString('base64url');

export function dnsRecords(row: Pick<DomainRow, 'domain' | 'verificationToken'>, target: string): DomainDnsRecord[] {
  return [
    // A target that is an address (PUBLIC_URL on an IP) is reached by an A or AAAA record, not a CNAME.
    { name: row.domain, type: isIP(target) === 6 ? 'AAAA' : isIP(target) === 4 ? 'A' : 'CNAME', value: target },
    { name: challengeName(row.domain), type: 'TXT', value: row.verificationToken },
  ];
}

export function toDomain(row: DomainRow, target: string): Domain {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status as DomainStatus,
    errorMessage: row.errorMessage,
    dnsRecords: dnsRecords(row, target),
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
  };
}

/** What the audit log keeps of a domain (not the token: it is only useful together with the zone anyway). */
export const auditedDomain = (domain: Domain) => ({ id: domain.id, domain: domain.domain, status: domain.status });

/**
 * Why a name cannot be a custom domain, beyond its syntax: our own host (or the CNAME target) and names under
 * it would route to ourselves or take over our sub-domains; IP-like names and special-use TLDs never verify.
 */
export function reservedDomainReason(domain: string, publicHost: string, target: string): string | undefined {
  for (const own of new Set([publicHost.toLowerCase(), target])) {
    if (domain === own || domain.endsWith(`.${own}`)) return `must not be ${own} or a name under it`;
  }
  const tld = domain.slice(domain.lastIndexOf('.') + 1);
  if (/^[0-9]+$/.test(tld)) return 'must be a host name, not an IP address';
  if (['localhost', 'local', 'invalid'].includes(tld)) return `must not be under the special-use name .${tld}`;
  return undefined;
}

export type CheckResult = { status: DomainStatus; errorMessage: string | null };

/** A DNS answer we could not get (timeout, SERVFAIL, refused…), as opposed to an answer saying "no such record". */
class ResolverFailure extends Error {
  readonly what: string;
  readonly errorCode: string;
  constructor(what: string, errorCode: string) {
    super(`${what}: ${errorCode}`);
    this.what = what;
    this.errorCode = errorCode;
  }
}

/** The records of a name, `[]` when the name or the record type does not exist (NXDOMAIN, NODATA). */
async function records<T>(what: string, query: () => Promise<T[]>): Promise<T[]> {
  try {
    return await query();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw new ResolverFailure(what, code);
  }
}

const normalizeHost = (host: string) => host.replace(/\.$/, '').toLowerCase();
const quoted = (value: string) => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);

function createResolver(config: CheckConfig): Resolver {
  const resolver = new Resolver(RESOLVER_OPTIONS);
  if (config.dnsServers) resolver.setServers(config.dnsServers);
  return resolver;
}

async function addressesOf(resolver: Resolver, host: string): Promise<string[]> {
  const [v4, v6] = await Promise.all([
    records(`A of ${host}`, () => resolver.resolve4(host)),
    records(`AAAA of ${host}`, () => resolver.resolve6(host)),
  ]);
  return [...v4, ...v6];
}

/**
 * The target's addresses: itself when it is one; else through the configured DNS servers, or, without them, the
 * system's lookup (which also reads /etc/hosts, as an operator expects of a name such as an internal balancer).
 */
async function targetAddresses(resolver: Resolver, target: string, config: CheckConfig): Promise<string[]> {
  if (isIP(target)) return [target];
  if (config.dnsServers) return addressesOf(resolver, target);
  try {
    return (await lookup(target, { all: true })).map((entry) => entry.address);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    if (code === 'ENOTFOUND' || code === 'ENODATA') return [];
    throw new ResolverFailure(`address of ${target}`, code);
  }
}

type Routing = { kind: 'ok'; addresses: string[] } | { kind: 'missing' } | { kind: 'elsewhere'; message: string };

/**
 * Where the domain routes: ok (with the addresses the HTTPS probe may connect to), not yet (no record), or
 * elsewhere (a message naming what was found). Without a CNAME, addresses that are all the target's also count:
 * apex domains cannot have a CNAME, and providers flatten one (ALIAS/ANAME) into A/AAAA records.
 */
async function checkRouting(resolver: Resolver, domain: string, config: CheckConfig): Promise<Routing> {
  const { target } = config;
  const [cname] = await records(`CNAME of ${domain}`, () => resolver.resolveCname(domain));
  if (cname !== undefined) {
    if (normalizeHost(cname) === target)
      return { kind: 'ok', addresses: await targetAddresses(resolver, target, config) };
    return {
      kind: 'elsewhere',
      message: `The CNAME record of ${domain} points to ${normalizeHost(cname)}; expected ${target}.`,
    };
  }
  const addresses = await addressesOf(resolver, domain);
  if (addresses.length === 0) return { kind: 'missing' };
  const allowed = new Set(await targetAddresses(resolver, target, config));
  if (addresses.every((address) => allowed.has(address))) return { kind: 'ok', addresses };
  return {
    kind: 'elsewhere',
    message:
      `${domain} has no CNAME record and resolves to ${addresses.join(', ')}; ` +
      `expected a CNAME record pointing to ${target}.`,
  };
}

/**
 * The probe connects only to the addresses the DNS check accepted (the target's): a tenant's DNS cannot point the
 * server's own request at another host between the check and the probe (DNS rebinding).
 */
function pinnedLookup(addresses: readonly string[]): LookupFunction {
  const found: LookupAddress[] = addresses.map((address) => ({ address, family: isIP(address) }));
  return (hostname: string, options: LookupOptions, callback) => {
    const [first] = found;
    if (!first) {
      const error: NodeJS.ErrnoException = new Error(`no address for ${hostname}`);
      error.code = 'ENOTFOUND';
      callback(error, '', 0);
    } else if (options.all) callback(null, found);
    else callback(null, first.address, first.family);
  };
}

/** `undefined` when `https://{domain}:{port}/api/status` answers 2xx over a certificate valid for the domain. */
function probeTls(domain: string, config: CheckConfig, addresses: readonly string[]): Promise<string | undefined> {
  const port = config.httpsPort === 443 ? '' : `:${config.httpsPort}`;
  const url = `https://${domain}${port}/api/status`;
  return new Promise((resolve) => {
    const req = request(
      {
        host: domain,
        servername: domain,
        port: config.httpsPort,
        path: '/api/status',
        method: 'GET',
        agent: false,
        headers: { 'User-Agent': 'Gatehouse custom domain check' },
        // Extra CAs are added to the public roots, not instead of them.
        ...(config.extraCaCertificates ? { ca: [...rootCertificates, config.extraCaCertificates] } : {}),
        lookup: pinnedLookup(addresses),
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        resolve(status >= 200 && status < 300 ? undefined : `HTTPS check of ${url} answered HTTP ${status}.`);
      },
    );
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('no answer within 5 s'), { code: 'ETIMEDOUT' })),
      TLS_PROBE_TIMEOUT_MS,
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      resolve(`HTTPS check of ${url} failed: ${error.code ? `${error.code}: ` : ''}${error.message}`);
    });
    req.on('close', () => clearTimeout(timer));
    req.end();
  });
}

/**
 * Checks a domain's DNS and, when it is right, its HTTPS. A resolver that cannot answer leaves the status as
 * it is (a flaky resolver must not demote a domain) and says so in the message.
 */
export async function checkDomain(
  row: Pick<DomainRow, 'domain' | 'verificationToken' | 'status'>,
  config: CheckConfig,
): Promise<CheckResult> {
  const { domain, verificationToken: token } = row;
  const resolver = createResolver(config);
  let txt: string[];
  let routing: Routing;
  try {
    const [txtRecords, routed] = await Promise.all([
      records(`TXT of ${challengeName(domain)}`, () => resolver.resolveTxt(challengeName(domain))),
      checkRouting(resolver, domain, config),
    ]);
    // A long TXT value arrives in 255-byte chunks.
    txt = txtRecords.map((chunks) => chunks.join(''));
    routing = routed;
  } catch (error) {
    if (!(error instanceof ResolverFailure)) throw error;
    return {
      status: row.status as DomainStatus,
      errorMessage: `DNS lookup failed (${error.message}); the status is unchanged and will be checked again.`,
    };
  }
  if (routing.kind === 'elsewhere') return { status: 'Error', errorMessage: routing.message };
  const owned = txt.includes(token);
  if (!owned || routing.kind === 'missing') {
    let errorMessage: string | null = null;
    if (txt.length > 0 && !owned) {
      errorMessage = `The TXT record ${challengeName(domain)} holds ${txt.map(quoted).join(', ')}; expected ${quoted(token)}.`;
    } else if (!owned && routing.kind === 'ok') {
      errorMessage = `The TXT record ${challengeName(domain)} was not found.`;
    } else if (owned) {
      errorMessage = `The CNAME record of ${domain} pointing to ${config.target} was not found.`;
    }
    return { status: 'PendingVerification', errorMessage };
  }
  const failure = await probeTls(domain, config, routing.addresses);
  return failure ? { status: 'PendingSsl', errorMessage: failure } : { status: 'Active', errorMessage: null };
}

function staleCheck(id: string): SQL {
  const due = or(isNull(domains.checkedAt), lt(domains.checkedAt, new Date(Date.now() - DOMAIN_RECHECK_MS)));
  return allOf(eq(domains.id, id), ne(domains.status, 'Active'), due);
}

/**
 * Re-checks the non-Active rows whose last check is stale and returns the rows as they are now (a row deleted
 * meanwhile is left out). The check is claimed first by stamping `checked_at` in one conditional UPDATE, so
 * concurrent reads (several consoles polling, several processes) run one check, and no transaction stays open
 * over the network calls.
 */
export async function refreshDomains(
  tenant: TenantDb,
  rows: DomainRow[],
  config: CheckConfig,
  log: Logger,
): Promise<DomainRow[]> {
  const refreshed = await Promise.all(
    rows.map(async (row) => {
      if (row.status === 'Active') return row;
      const [claimed] = await tenant.update(domains, staleCheck(row.id), { checkedAt: new Date() });
      if (!claimed) return row;
      let result: CheckResult;
      try {
        result = await checkDomain(claimed, config);
      } catch (error) {
        // A bug or an unexpected resolver error: the read still answers, with the stored status.
        log.error({ err: error, domain: claimed.domain }, 'custom domain check failed');
        return claimed;
      }
      const changed = result.status !== claimed.status || result.errorMessage !== claimed.errorMessage;
      if (!changed) return claimed;
      const [saved] = await tenant.update(domains, eq(domains.id, row.id), { ...result, updatedAt: new Date() });
      if (saved && result.status !== claimed.status) {
        log.info({ domain: saved.domain, from: claimed.status, to: saved.status }, 'custom domain status changed');
      }
      return saved;
    }),
  );
  return refreshed.filter((row): row is DomainRow => row !== undefined);
}

// The admin API's operations on custom domains: list and read (re-checking stale ones), create, delete.

/** As the reference product: one custom domain per tenant. */
const DOMAINS_PER_TENANT = 1;

/** The tenant's domains, newest first, each checked again first when it is not Active and its check is stale. */
export async function listDomains(tenant: TenantDb, config: CheckConfig, log: Logger): Promise<Domain[]> {
  const rows = await tenant.findMany(domains, { orderBy: [desc(domains.createdAt), desc(domains.id)] });
  const current = await refreshDomains(tenant, rows, config, log);
  return current.map((row) => toDomain(row, config.target));
}

export async function getDomain(tenant: TenantDb, id: string, config: CheckConfig, log: Logger): Promise<Domain> {
  const row = await tenant.findOne(domains, eq(domains.id, id));
  if (!row) throw notFound();
  const [current] = await refreshDomains(tenant, [row], config, log);
  if (!current) throw notFound();
  return toDomain(current, config.target);
}

/** A new custom domain (PendingVerification, with the DNS records to publish); never the server's own host. */
export function createDomain(
  ctx: WriteContext,
  config: Pick<Config, 'publicUrl' | 'customDomains'>,
  input: DomainCreate,
): Promise<Domain> {
  const { publicUrl, customDomains } = config;
  return performWrite(ctx, 'Admin.Domain.Created', async (tx) => {
    const reason = reservedDomainReason(input.domain, new URL(publicUrl).hostname, customDomains.target);
    if (reason) {
      throw new DomainError('invalid', 'guard.invalid_input', [{ path: 'domain', message: reason, code: 'custom' }]);
    }
    // Two concurrent creates would each count zero: a per-tenant transaction lock serialises them. It is
    // taken in its own statement so the count below reads with a snapshot from after the lock.
    await tx.aggregate(
      { rows: count(), locked: sql`(select 1 from pg_advisory_xact_lock(hashtext(${`domains:${tx.tenantId}`})))` },
      domains,
    );
    if ((await tx.count(domains)) >= DOMAINS_PER_TENANT) throw new DomainError('unprocessable', 'domain.limit_reached');
    const created = toDomain(
      await tx.insert(domains, {
        id: generateId(),
        domain: input.domain,
        status: 'PendingVerification',
        verificationToken: newVerificationToken(),
      }),
      customDomains.target,
    );
    return { result: created, entity: { type: 'Domain', id: created.id }, before: null, after: auditedDomain(created) };
  });
}

export function deleteDomain(ctx: WriteContext, id: string, target: string): Promise<void> {
  return performWrite(ctx, 'Admin.Domain.Deleted', async (tx) => {
    const [deleted] = await tx.delete(domains, eq(domains.id, id));
    if (!deleted) throw notFound();
    return {
      result: undefined,
      entity: { type: 'Domain', id },
      before: auditedDomain(toDomain(deleted, target)),
      after: null,
    };
  });
}
