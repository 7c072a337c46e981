-- User search under row-level security (issue 38, docs/areas/security.md "Searching users under row-level
-- security"). The policy of migration 0019 makes every condition a query adds to `users` wait until the policy's
-- own condition has passed, unless the condition is leakproof; ILIKE, LIKE and lower() are not, so as the tenant
-- role a search cannot use the trigram and lower() indexes and reads the tenant's every row (1.2 s at a million
-- users, against 6 ms as the owner).
--
-- This function is the one reviewed path around that: it runs as the tables' owner and answers the ids of the
-- users of the tenant named by `gatehouse.tenant_id` (the setting the policy itself trusts, set by the data
-- layer in the same transaction) that one condition on one field matches, at most `max_rows` of them. What it
-- can read is fixed here: the field is one of five names mapped to columns below, the operator one of four, the
-- values are parameters, and only ids come back. The caller (services/user-search.ts) takes the ids as
-- candidates and applies its own conditions to them as the tenant role, so the policy still decides which rows
-- a query sees.
CREATE OR REPLACE FUNCTION gatehouse_user_search(field text, op text, terms text[], max_rows integer)
RETURNS SETOF varchar
LANGUAGE plpgsql STABLE SECURITY DEFINER
SET search_path = pg_catalog, public
AS $$
DECLARE
  tenant text := current_setting('gatehouse.tenant_id', true);
  col text;
  term text;
BEGIN
  IF tenant IS NULL OR tenant = '' OR max_rows IS NULL OR max_rows <= 0 OR terms IS NULL THEN
    RETURN;
  END IF;
  col := CASE field
    WHEN 'id' THEN 'id'
    WHEN 'username' THEN 'username'
    WHEN 'primaryEmail' THEN 'primary_email'
    WHEN 'primaryPhone' THEN 'primary_phone'
    WHEN 'name' THEN 'name'
  END;
  IF col IS NULL THEN
    RAISE EXCEPTION 'gatehouse_user_search: unknown field %', field USING ERRCODE = '22023';
  END IF;
  IF op = 'equals' THEN
    -- The primary key (tenant_id, id), the phone's unique index, the trigram index for names.
    RETURN QUERY EXECUTE format(
      'SELECT u.id FROM public.users u WHERE u.tenant_id = $1 AND u.%I = ANY ($2) LIMIT $3', col
    ) USING tenant, terms, max_rows;
  ELSIF op = 'equals_lower' AND col IN ('username', 'primary_email') THEN
    -- The unique (tenant_id, lower(...)) indexes.
    RETURN QUERY EXECUTE format(
      'SELECT u.id FROM public.users u WHERE u.tenant_id = $1 AND lower(u.%I) = ANY ($2) LIMIT $3', col
    ) USING tenant, terms, max_rows;
  ELSIF op IN ('like', 'ilike') THEN
    -- The trigram indexes; one statement per pattern (a GIN index does not serve `LIKE ANY (array)`), each
    -- planned with its pattern (EXECUTE plans once per call), so a short pattern may take another way.
    FOREACH term IN ARRAY terms LOOP
      RETURN QUERY EXECUTE format(
        'SELECT u.id FROM public.users u WHERE u.tenant_id = $1 AND u.%I %s $2 LIMIT $3',
        col, CASE op WHEN 'like' THEN 'LIKE' ELSE 'ILIKE' END
      ) USING tenant, term, max_rows;
    END LOOP;
  ELSE
    RAISE EXCEPTION 'gatehouse_user_search: unknown operator % for %', op, field USING ERRCODE = '22023';
  END IF;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION gatehouse_user_search(text, text, text[], integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION gatehouse_user_search(text, text, text[], integer) TO gatehouse_tenant;
