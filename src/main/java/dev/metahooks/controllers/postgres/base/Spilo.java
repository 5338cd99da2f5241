package dev.metahooks.controllers.postgres.base;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What the Spilo image is and expects, in one place below every builder: its container, data volume and paths,
 * ports, the users it creates, where WAL-G's settings live and where the pods mount the TLS Secret.
 */
public final class Spilo {
  public static final String CONTAINER = "postgres";
  public static final String DATA_VOLUME = "pgdata";

  /** The data volume's mount point; Spilo keeps PGROOT below it. */
  public static final String DATA_PATH = "/home/postgres/pgdata";

  /** The data directory Spilo runs PostgreSQL with. */
  public static final String PGDATA = DATA_PATH + "/pgroot/data";

  /** Where the image keeps Spilo's scripts, inplace_upgrade.py among them (Dockerfile:122 at zalando/spilo 7cb50bd). */
  public static final String SCRIPTS = "/scripts";

  /** PostgreSQL's versions side by side, {@code <dir>/<major>/bin} (spilo_commons.py get_bin_dir, LIB_DIR). */
  public static final String VERSIONS = "/usr/lib/postgresql";

  /** The WAL volume (spec.storage.wal), mounted beside the data volume. */
  public static final String WAL_VOLUME = "pgwal";

  public static final String WAL_PATH = "/home/postgres/pgwal";

  /**
   * pg_wal's place on the WAL volume: a directory below the mount point, so that the volume's own entries
   * (lost+found) do not make it non-empty for initdb and pg_basebackup, and Patroni can remove it whole.
   */
  public static final String WAL_DIRECTORY = WAL_PATH + "/pg_wal";

  /**
   * Spilo's initdb options (configure_spilo.py:256-259 at zalando/spilo 7cb50bd: UTF8, the INITDB_LOCALE default
   * en_US, configure_spilo.py:560, and data checksums).
   */
  public static final List<String> INITDB_ENCODING = List.of("encoding", "UTF8");

  public static final List<String> INITDB_LOCALE = List.of("locale", "en_US.UTF-8");
  public static final String INITDB_CHECKSUMS = "data-checksums";
  public static final int POSTGRES_PORT = 5432;
  public static final int PATRONI_PORT = 8008;
  public static final String SUPERUSER = "postgres";
  public static final String REPLICATION_USER = "standby";

  /** The user of Patroni's REST API (restapi.authentication). */
  public static final String RESTAPI_USER = "patroni";

  /** Where Spilo writes WAL-G's environment, an envdir (configure_spilo.py: RW_DIR/etc/wal-e.d/env). */
  public static final String WAL_ENV_DIR = "/run/etc/wal-e.d/env";

  /** The pods' volume of the TLS Secret, and where the postgres container mounts it. */
  public static final String TLS_VOLUME = "tls";

  public static final String TLS_MOUNT = "/tls";

  /**
   * Spilo's own shared_preload_libraries for PostgreSQL 13 to 17 (configure_spilo.py's template and
   * spilo_commons.py's extensions); a list given in the spec is added to it, never put in its place.
   */
  public static final List<String> PRELOAD_LIBRARIES =
      List.of(
          "bg_mon",
          "pg_stat_statements",
          "pgextwlist",
          "pg_auth_mon",
          "set_user",
          "timescaledb",
          "pg_cron",
          "pg_stat_kcache");

  private Spilo() {}

  /** Spilo's libraries first, then the spec's that are not among them. */
  public static String preloadLibraries(String given) {
    Set<String> libraries = new LinkedHashSet<>(Spilo.PRELOAD_LIBRARIES);
    for (String library : given.split(",")) {
      if (!library.isBlank()) {
        libraries.add(library.strip());
      }
    }
    return String.join(",", libraries);
  }
}
