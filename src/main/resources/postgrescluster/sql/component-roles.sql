-- The roles of the cluster's own components, run in the users Job's session after users.sql. Input, as psql
-- variables: exporter and pooler, each on (the feature is on), retired (it was on once: its Secret is still there)
-- or off; exporter_verifier and pooler_verifier, the SCRAM verifiers of the roles that are on.
CREATE TEMPORARY TABLE component_role AS
  SELECT * FROM (VALUES
    ('metahooks_exporter', :'exporter', :'exporter_verifier', 5),
    ('metahooks_pooler', :'pooler', :'pooler_verifier', 100)) AS r(name, state, verifier, connections);

SELECT format('CREATE ROLE %I', name) FROM component_role c
  WHERE state = 'on' AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_roles WHERE rolname = c.name) \gexec
SELECT format('ALTER ROLE %I WITH LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS'
    ' CONNECTION LIMIT %s PASSWORD %L', name, connections, verifier)
  FROM component_role WHERE state = 'on' \gexec
SELECT format('COMMENT ON ROLE %I IS %L', name, 'component role managed by metahooks.dev PostgresCluster')
  FROM component_role WHERE state = 'on' \gexec
SELECT 'GRANT pg_monitor TO metahooks_exporter' FROM component_role
  WHERE name = 'metahooks_exporter' AND state = 'on' \gexec

-- A component turned off may not log in; its role stays (and its Secret, so turning it on again keeps the password).
SELECT format('ALTER ROLE %I NOLOGIN', rolname) FROM pg_catalog.pg_roles JOIN component_role ON rolname = name
  WHERE state = 'retired' AND rolcanlogin \gexec
