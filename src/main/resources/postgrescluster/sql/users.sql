-- The application users of spec.users, run by the users Job. Every statement can run again with the same result.
-- Input, as psql variables: users, the spec's users as JSON ([{"name", "databases", "options", "connect"}]),
-- verifiers, each user's SCRAM verifier in the same order, separated by spaces, databases, the declared databases
-- of spec.databases as JSON ([{"name", "owner", "extensions", "schemas", "reclaimPolicy"}]), and database_mark, the
-- comment that marks a declared database as this cluster's, this incarnation's (its uid). Names reach statements only through format()'s %I and
-- %L.

-- Nothing of this session reaches the server log or pg_stat_statements (the settings need the superuser).
SET log_statement = 'none';
SET log_min_duration_statement = -1;
SET log_min_error_statement = 'panic';
SET pg_stat_statements.track_utility = off;

-- An extension this server does not have stops the Job before anything changes (the next Job, for a spec without
-- it, starts from a clean state).
SELECT set_config('metahooks.missing_extensions',
    coalesce(string_agg(format('%s (database %s)', e, d.value ->> 'name'), ', '), ''), false) AS missing_extensions
  FROM jsonb_array_elements(:'databases'::jsonb) d, jsonb_array_elements_text(d.value -> 'extensions') e
  WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_available_extensions a WHERE a.name = e) \gset
DO $$
BEGIN
  IF current_setting('metahooks.missing_extensions') <> '' THEN
    RAISE EXCEPTION 'extensions not available on this server, nothing was changed: %',
      current_setting('metahooks.missing_extensions');
  END IF;
END
$$;

CREATE TEMPORARY TABLE wanted_user AS
  SELECT u.value ->> 'name' AS role,
         v.verifier,
         u.value -> 'options' @> '["CREATEDB"]' AS createdb,
         u.value -> 'options' @> '["CREATEROLE"]' AS createrole,
         ARRAY(SELECT jsonb_array_elements_text(u.value -> 'databases')) AS databases,
         ARRAY(SELECT jsonb_array_elements_text(u.value -> 'connect')) AS connect
  FROM jsonb_array_elements(:'users'::jsonb) WITH ORDINALITY AS u(value, position)
  JOIN unnest(string_to_array(:'verifiers', ' ')) WITH ORDINALITY AS v(verifier, position) USING (position);

-- The roles that carry the mark of the cluster's application users.
CREATE TEMPORARY VIEW marked_role AS
  SELECT r.rolname, r.rolcanlogin
  FROM pg_catalog.pg_roles r
  JOIN pg_catalog.pg_shdescription d ON d.objoid = r.oid AND d.classoid = 'pg_catalog.pg_authid'::pg_catalog.regclass
  WHERE d.description = 'application user managed by metahooks.dev PostgresCluster';

SELECT format('CREATE ROLE %I', role) FROM wanted_user w
  WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = w.role) \gexec
SELECT format('ALTER ROLE %I WITH LOGIN NOSUPERUSER NOREPLICATION NOBYPASSRLS %s %s PASSWORD %L', role,
    CASE WHEN createdb THEN 'CREATEDB' ELSE 'NOCREATEDB' END,
    CASE WHEN createrole THEN 'CREATEROLE' ELSE 'NOCREATEROLE' END, verifier)
  FROM wanted_user \gexec
SELECT format('COMMENT ON ROLE %I IS %L', role, 'application user managed by metahooks.dev PostgresCluster')
  FROM wanted_user \gexec

-- Each user's databases and the declared ones: created if missing, owned by their user, closed to PUBLIC.
CREATE TEMPORARY TABLE declared_database AS
  SELECT d.value ->> 'name' AS database, d.value ->> 'owner' AS owner,
         :'database_mark' || '; reclaimPolicy: ' || (d.value ->> 'reclaimPolicy') AS mark
  FROM jsonb_array_elements(:'databases'::jsonb) d;
CREATE TEMPORARY TABLE wanted_database AS
  SELECT database, role AS owner FROM wanted_user, unnest(databases) AS database
  UNION ALL SELECT database, owner FROM declared_database;
SELECT format('CREATE DATABASE %I OWNER %I', database, owner) FROM wanted_database d
  WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_database WHERE datname = d.database) \gexec
SELECT format('ALTER DATABASE %I OWNER TO %I', database, owner) FROM wanted_database \gexec
SELECT format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', database) FROM wanted_database \gexec

-- A declared database carries this cluster's mark and its reclaimPolicy, which outlive its entry in the spec; a
-- database now listed in users[].databases loses the mark (no policy applies to it any more).
CREATE TEMPORARY VIEW marked_database AS
  SELECT db.datname, d.description
  FROM pg_catalog.pg_database db
  JOIN pg_catalog.pg_shdescription d ON d.objoid = db.oid AND d.classoid = 'pg_catalog.pg_database'::pg_catalog.regclass
  WHERE d.description IN (:'database_mark' || '; reclaimPolicy: Retain', :'database_mark' || '; reclaimPolicy: Delete');
SELECT format('COMMENT ON DATABASE %I IS %L', database, mark) FROM declared_database \gexec
SELECT format('COMMENT ON DATABASE %I IS NULL', datname) FROM marked_database m
  WHERE NOT EXISTS (SELECT 1 FROM declared_database WHERE database = m.datname)
    AND EXISTS (SELECT 1 FROM wanted_database WHERE database = m.datname) \gexec

-- Once every role exists: who else may connect to each database (the users that list it in connect).
SELECT format('REVOKE CONNECT ON DATABASE %I FROM %I', d.database, m.rolname) FROM wanted_database d, marked_role m
  WHERE m.rolname <> d.owner
    AND NOT EXISTS (SELECT 1 FROM wanted_user u WHERE u.role = m.rolname AND d.database = ANY (u.connect)) \gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', d.database, u.role) FROM wanted_database d, wanted_user u
  WHERE d.database = ANY (u.connect) \gexec

-- A marked role no longer in the spec may not log in (it is never dropped: it may own data).
SELECT format('ALTER ROLE %I NOLOGIN', rolname) FROM marked_role m
  WHERE rolcanlogin AND NOT EXISTS (SELECT 1 FROM wanted_user WHERE role = m.rolname) \gexec

-- A database removed from spec.databases is kept, unless its mark says reclaimPolicy: Delete. DROP DATABASE fails
-- while anyone is connected to it (the Job fails and is retried), so no session is cut off.
SELECT format('DROP DATABASE %I', datname) FROM marked_database m
  WHERE description = :'database_mark' || '; reclaimPolicy: Delete'
    AND NOT EXISTS (SELECT 1 FROM wanted_database WHERE database = m.datname) \gexec

-- A mark of this cluster's name but of another incarnation (a physical restore copies the marks of the cluster the
-- backup was taken from) or without one (written before marks named the incarnation: this incarnation's or a
-- restored one's, which cannot be told apart) is never acted upon: its database is kept, and the Job says so.
-- Declaring the database again gives it this incarnation's mark.
CREATE TEMPORARY VIEW foreign_marked_database AS
  SELECT datname, coalesce('incarnation ' || other, 'a version that named no incarnation') AS marker
  FROM (SELECT db.datname, d.description,
               substring(d.description FROM ' \(incarnation ([^)]*)\); reclaimPolicy: Delete$') AS other
        FROM pg_catalog.pg_database db
        JOIN pg_catalog.pg_shdescription d
          ON d.objoid = db.oid AND d.classoid = 'pg_catalog.pg_database'::pg_catalog.regclass) m
  WHERE description <> :'database_mark' || '; reclaimPolicy: Delete'
    AND (description = split_part(:'database_mark', ' (incarnation ', 1) || '; reclaimPolicy: Delete'
      OR description = split_part(:'database_mark', ' (incarnation ', 1) || ' (incarnation ' || other
        || '); reclaimPolicy: Delete');
SELECT set_config('metahooks.kept_databases', coalesce(string_agg(format('%I (marked by %s)', datname, marker), ', '
    ORDER BY datname), ''), false) AS kept_databases
  FROM foreign_marked_database m WHERE NOT EXISTS (SELECT 1 FROM wanted_database WHERE database = m.datname) \gset
DO $$
BEGIN
  IF current_setting('metahooks.kept_databases') <> '' THEN
    RAISE WARNING 'kept, not dropped: databases removed from the spec whose mark says reclaimPolicy: Delete for '
      'another incarnation of this cluster: %; drop one on purpose with DROP DATABASE',
      current_setting('metahooks.kept_databases');
  END IF;
END
$$;
