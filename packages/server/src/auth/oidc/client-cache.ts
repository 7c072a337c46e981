import { eq } from 'drizzle-orm';
import { type ChangeNotices, NoticedCache } from '../../db/change-notices.ts';
import { applicationSecrets, applications } from '../../db/tables.ts';
import type { TenantDb } from '../../db/tenant-db.ts';

type Application = typeof applications.$inferSelect;
type ApplicationSecretRow = typeof applicationSecrets.$inferSelect;
/** An API resource's token lifetime and the names of its scopes granted to a subject. */
export type ResourceGrant = { accessTokenTtl: number; scopes: string[] };

/**
 * The applications the OIDC provider authenticates, their named secrets and what their roles grant, kept in memory
 * between requests: every client-credentials token read all three (three of its four statements). Role, resource and
 * scope writes announce a `grants` change the same way. Every write audited as an
 * `Application` (the application, its secrets) announces a `clients` change in its transaction (services/write-path.ts),
 * which drops the tenant's entries in every process when it commits, and at once in the committing one; a tenant's
 * deletion and a lost listening connection drop them too, and an entry lives a minute at most besides. Without change
 * notices (an app built alone) nothing is kept. An unknown client id is never kept, and named secrets are read only for
 * an application that exists, so made-up ids cannot fill the cache. It is the `ClientReads` of client authentication
 * (services/application-secrets.ts; not imported here, which would close an import cycle through db/seed.ts).
 */
export class ClientCache {
  readonly #applications: NoticedCache<Application>;
  readonly #secrets: NoticedCache<readonly ApplicationSecretRow[]>;
  readonly #machineGrants: NoticedCache<ResourceGrant>;

  constructor(notices: ChangeNotices | undefined) {
    this.#applications = new NoticedCache(notices, ['clients']);
    this.#secrets = new NoticedCache(notices, ['clients']);
    // An application's roles change as the application (`clients`), roles, resources and scopes as themselves.
    this.#machineGrants = new NoticedCache(notices, ['clients', 'grants']);
  }

  /**
   * What an application is granted of an API resource through its roles (client credentials, token exchange). Users'
   * grants are not kept: their roles also change outside the management API (sign-up defaults, SCIM, JIT).
   */
  machineGrants(
    tenant: TenantDb,
    applicationId: string,
    indicator: string,
    read: () => Promise<ResourceGrant | undefined>,
  ): Promise<ResourceGrant | undefined> {
    return this.#machineGrants.get(tenant.tenantId, `${applicationId}\u0000${indicator}`, read);
  }

  application(tenant: TenantDb, clientId: string): Promise<Application | undefined> {
    return this.#applications.get(tenant.tenantId, clientId, () =>
      tenant.findOne(applications, eq(applications.id, clientId)),
    );
  }

  namedSecrets(tenant: TenantDb, clientId: string): Promise<readonly ApplicationSecretRow[]> {
    return this.#secrets
      .get(tenant.tenantId, clientId, () =>
        tenant.findMany(applicationSecrets, { where: eq(applicationSecrets.applicationId, clientId) }),
      )
      .then((rows) => rows ?? []);
  }
}
