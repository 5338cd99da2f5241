-- The schemas and extensions of a declared database (spec.databases), run by the users Job in each database it
-- visits (PGDATABASE); in a database that is not declared it does nothing. Input, as a psql variable: databases,
-- as for users.sql. Names reach statements only through format()'s %I. Nothing is ever dropped here: a schema or
-- an extension removed from the spec stays, with whatever it holds.
CREATE TEMPORARY TABLE wanted AS
  SELECT d.value ->> 'owner' AS owner, d.value -> 'schemas' AS schemas, d.value -> 'extensions' AS extensions
  FROM jsonb_array_elements(:'databases'::jsonb) d
  WHERE d.value ->> 'name' = current_database();
SELECT format('CREATE SCHEMA IF NOT EXISTS %I AUTHORIZATION %I', schema, owner)
  FROM wanted, jsonb_array_elements_text(schemas) AS schema \gexec
SELECT format('ALTER SCHEMA %I OWNER TO %I', schema, owner)
  FROM wanted, jsonb_array_elements_text(schemas) AS schema \gexec
SELECT format('CREATE EXTENSION IF NOT EXISTS %I CASCADE', extension)
  FROM wanted, jsonb_array_elements_text(extensions) AS extension \gexec
DROP TABLE wanted;
