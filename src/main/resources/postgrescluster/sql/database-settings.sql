-- The settings of each database a logical backup holds (pg_db_role_setting: ALTER DATABASE ... SET, and
-- ALTER ROLE ... IN DATABASE ... SET), written as the statements that set them again: one line each (a quoted name
-- or value may hold a newline), every name quoted with %I and every value with quote_literal, so that nothing of
-- them is ever SQL. pg_dump writes them only with --create, whose restore would connect by the dumped name; the
-- restore runs these once its databases exist. A list setting (search_path, ...) is stored as a list of quoted
-- identifiers: each element becomes a literal of its own, as pg_dump does (makeAlterConfigCommand). The postgres
-- database's settings apply only where the restore restores that database (psql's \if on restore_postgres).
SELECT CASE WHEN d.datname = 'postgres' THEN E'\\if :restore_postgres\n' ELSE '' END
       || CASE WHEN s.setrole = 0 THEN format('ALTER DATABASE %I', d.datname)
            ELSE format('ALTER ROLE %I IN DATABASE %I', r.rolname, d.datname) END
       || format(' SET %I TO ', c.name)
       || CASE WHEN c.name IN ('search_path', 'temp_tablespaces', 'local_preload_libraries',
                               'session_preload_libraries', 'shared_preload_libraries', 'unix_socket_directories')
            THEN coalesce((SELECT string_agg(quote_literal(CASE WHEN e.item[1] LIKE '"%'
                                                       THEN replace(substr(e.item[1], 2, length(e.item[1]) - 2), '""', '"')
                                                       ELSE e.item[1] END), ', ' ORDER BY e.n)
                  FROM regexp_matches(c.value, '"(?:[^"]|"")*"|[^\s,]+', 'g') WITH ORDINALITY AS e(item, n)), '''''')
            ELSE quote_literal(c.value) END
       || ';'
       || CASE WHEN d.datname = 'postgres' THEN E'\n\\endif' ELSE '' END
FROM pg_catalog.pg_db_role_setting s
JOIN pg_catalog.pg_database d ON d.oid = s.setdatabase
LEFT JOIN pg_catalog.pg_roles r ON r.oid = s.setrole
CROSS JOIN LATERAL (SELECT split_part(setting, '=', 1) AS name, substr(setting, strpos(setting, '=') + 1) AS value, n
                    FROM unnest(s.setconfig) WITH ORDINALITY AS u(setting, n)) c
WHERE d.datallowconn AND NOT d.datistemplate AND (d.datname <> 'postgres' OR :'with_postgres' = 'true')
  AND (s.setrole = 0 OR r.oid IS NOT NULL)
ORDER BY d.datname, s.setrole, c.n;
