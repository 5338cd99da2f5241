-- PgBouncer's auth_query in the current database: it may connect, and look up the SCRAM verifier of a role that can
-- log in and is neither a superuser nor a replication role (no row for any other: a set, not a record of nulls,
-- which PgBouncer could take for a user without a password). SECURITY DEFINER, owned by the superuser, so that the
-- pooler's role need not read pg_authid itself; only that role may use the schema and call the function.
SET log_statement = 'none';
SELECT format('GRANT CONNECT ON DATABASE %I TO metahooks_pooler', current_database()) \gexec
CREATE SCHEMA IF NOT EXISTS metahooks;
REVOKE ALL ON SCHEMA metahooks FROM PUBLIC;
CREATE OR REPLACE FUNCTION metahooks.pooler_lookup(i_username text, OUT usename name, OUT passwd text)
  RETURNS SETOF record LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
    SELECT rolname, rolpassword FROM pg_catalog.pg_authid
    WHERE rolname = i_username AND rolcanlogin AND NOT rolsuper AND NOT rolreplication
  $$;
REVOKE ALL ON FUNCTION metahooks.pooler_lookup(text) FROM PUBLIC;
GRANT USAGE ON SCHEMA metahooks TO metahooks_pooler;
GRANT EXECUTE ON FUNCTION metahooks.pooler_lookup(text) TO metahooks_pooler;
