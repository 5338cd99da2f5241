-- The application users of spec.users, run by the users Job. Every statement can run again with the same result.
-- Input, as psql variables: users, the spec's users as JSON ([{"name", "databases", "options", "connect"}]), and
-- verifiers, each user's SCRAM verifier in the same order, separated by spaces. Names reach statements only
-- through format()'s %I and %L.

-- Nothing of this session reaches the server log or pg_stat_statements (the settings need the superuser).
SET log_statement = 'none';
SET log_min_duration_statement = -1;
SET log_min_error_statement = 'panic';
SET pg_stat_statements.track_utility = off;

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

-- Each user's databases: created if missing, owned by the user, closed to PUBLIC.
CREATE TEMPORARY TABLE wanted_database AS
  SELECT database, role AS owner FROM wanted_user, unnest(databases) AS database;
SELECT format('CREATE DATABASE %I OWNER %I', database, owner) FROM wanted_database d
  WHERE NOT EXISTS (SELECT 1 FROM pg_catalog.pg_database WHERE datname = d.database) \gexec
SELECT format('ALTER DATABASE %I OWNER TO %I', database, owner) FROM wanted_database \gexec
SELECT format('REVOKE CONNECT ON DATABASE %I FROM PUBLIC', database) FROM wanted_database \gexec

-- Once every role exists: who else may connect to each database (the users that list it in connect).
SELECT format('REVOKE CONNECT ON DATABASE %I FROM %I', d.database, m.rolname) FROM wanted_database d, marked_role m
  WHERE m.rolname <> d.owner
    AND NOT EXISTS (SELECT 1 FROM wanted_user u WHERE u.role = m.rolname AND d.database = ANY (u.connect)) \gexec
SELECT format('GRANT CONNECT ON DATABASE %I TO %I', d.database, u.role) FROM wanted_database d, wanted_user u
  WHERE d.database = ANY (u.connect) \gexec

-- A marked role no longer in the spec may not log in (it is never dropped: it may own data).
SELECT format('ALTER ROLE %I NOLOGIN', rolname) FROM marked_role m
  WHERE rolcanlogin AND NOT EXISTS (SELECT 1 FROM wanted_user WHERE role = m.rolname) \gexec
