-- The parameters Job's read-back on one member. Input, as a psql variable: expected, a JSON object of setting name to
-- the value sent. A row for each setting this member does not run with: the last line for it in the configuration
-- files (Patroni writes the settings into postgresql.conf) must hold the value sent, PostgreSQL must have taken it,
-- and the value in effect must come from that very line (a local value Patroni writes instead, or a value
-- PostgreSQL refused, leaves another line or another value in effect). Needs the superuser (pg_file_settings).
SELECT e.key || '=' || coalesce(s.setting, '(unknown)') || coalesce(' (' || f.error || ')', '')
FROM jsonb_each_text(:'expected'::jsonb) AS e
LEFT JOIN pg_catalog.pg_settings s ON s.name = e.key
LEFT JOIN LATERAL (
  SELECT f.setting, f.sourcefile, f.sourceline, f.applied, f.error FROM pg_catalog.pg_file_settings f
  WHERE f.name = e.key ORDER BY f.seqno DESC LIMIT 1) AS f ON true
WHERE f.setting IS DISTINCT FROM e.value OR f.error IS NOT NULL OR NOT coalesce(f.applied, false)
   -- A value of this session's own hides the server's here: one its client set (application_name, from the
   -- connection), or one the superuser or the postgres database has (ALTER ROLE/DATABASE ... SET). For those the
   -- line's being taken stands.
   OR (s.source NOT IN ('client', 'session', 'user', 'database', 'database user')
       AND (s.sourcefile IS DISTINCT FROM f.sourcefile OR s.sourceline IS DISTINCT FROM f.sourceline));
