-- Organization search under row-level security (issue 38), the same reviewed path as user search (migration 0024,
-- docs/areas/security.md "Searching users under row-level security"): the keyword's ILIKE over an organization's id
-- and name is not leakproof, so as the tenant role it could not use the trigram indexes. This function runs as the
-- tables' owner and answers the ids of the organizations of the tenant named by `gatehouse.tenant_id` whose id or name
-- the pattern matches, at most `max_rows`. Fixed statement, the pattern a parameter, ids only out.
CREATE OR REPLACE FUNCTION gatehouse_organization_search(pattern text, max_rows integer)
RETURNS SETOF varchar
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public
AS $$
DECLARE
  tenant text := current_setting('gatehouse.tenant_id', true);
BEGIN
  IF tenant IS NULL OR tenant = '' OR pattern IS NULL OR max_rows IS NULL OR max_rows <= 0 THEN
    RETURN;
  END IF;
  -- EXECUTE: planned with the pattern itself (the trigram indexes for a selective one).
  RETURN QUERY EXECUTE
    'SELECT o.id FROM public.organizations o WHERE o.tenant_id = $1 AND (o.id ILIKE $2 OR o.name ILIKE $2) LIMIT $3'
    USING tenant, pattern, max_rows;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gatehouse_organization_search(text, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gatehouse_organization_search(text, integer) TO gatehouse_tenant;
