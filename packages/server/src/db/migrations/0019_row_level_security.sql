-- Tenant isolation by the database (issue 23, docs/areas/security.md "Row-level security"): every table with a
-- tenant_id column gets a policy that shows and accepts only the rows of the tenant named by the transaction's
-- `gatehouse.tenant_id` setting, for the role `gatehouse_tenant` (no BYPASSRLS) that the data layer switches to for
-- each tenant's statements (db/tenant-db.ts). Without the setting the policy matches nothing. The owner role keeps
-- its rights for the few named operations across tenants (workers claiming jobs, the cloud tenant list, seeding).
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'gatehouse_tenant') THEN
    CREATE ROLE gatehouse_tenant NOLOGIN NOSUPERUSER NOBYPASSRLS;
  END IF;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  -- A non-superuser owner must be a member to switch to the role; a superuser may switch anyway. A DBA who created
  -- the role beforehand grants it (docs/areas/security.md "Row-level security").
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)
     AND NOT pg_has_role(current_user, 'gatehouse_tenant', 'MEMBER') THEN
    EXECUTE format('GRANT gatehouse_tenant TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO gatehouse_tenant;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO gatehouse_tenant;
--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO gatehouse_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO gatehouse_tenant;
--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO gatehouse_tenant;
--> statement-breakpoint
DO $$
DECLARE
  tenant_table record;
BEGIN
  FOR tenant_table IN
    SELECT c.table_name
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE'
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', tenant_table.table_name);
    EXECUTE format('DROP POLICY IF EXISTS tenant_isolation ON %I', tenant_table.table_name);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I TO gatehouse_tenant '
      'USING (tenant_id = current_setting(''gatehouse.tenant_id'', true)) '
      'WITH CHECK (tenant_id = current_setting(''gatehouse.tenant_id'', true))',
      tenant_table.table_name
    );
  END LOOP;
END $$;
--> statement-breakpoint
-- Plans are the control plane's business: the admin tenant (cloud billing, quota checks of a tenant's plan) reads every
-- tenant's subscription; writes stay per tenant.
DROP POLICY IF EXISTS admin_reads_subscriptions ON tenant_subscriptions;
--> statement-breakpoint
CREATE POLICY admin_reads_subscriptions ON tenant_subscriptions FOR SELECT TO gatehouse_tenant
  USING (current_setting('gatehouse.tenant_id', true) = 'admin');
