package dev.metahooks.controllers.postgres.children.pod;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.WalVolume;

/**
 * {@code spec.storage.wal}: the claim template {@code pgwal}, its mount at {@value Spilo#WAL_PATH}, and the Patroni
 * settings that put each member's pg_wal there, as a symlink from the data directory to {@value Spilo#WAL_DIRECTORY}.
 * Spilo has no setting of its own for a WAL directory; PostgreSQL's tools do, so every way a member's data
 * directory is made uses one:
 *
 * <ul>
 *   <li>the first member: Patroni's bootstrap runs initdb with {@code bootstrap.initdb} as its options
 *       ({@code --waldir}). Spilo merges SPILO_CONFIGURATION over its own and keeps the given list whole
 *       (configure_spilo.py:149-165, deep_update, and :1144 at zalando/spilo 7cb50bd), so Spilo's own options are
 *       repeated here;</li>
 *   <li>replicas: Patroni's built-in {@code basebackup} method, pg_basebackup with {@code postgresql.basebackup} as
 *       extra options ({@code --waldir}, {@code --checkpoint=fast}) (patroni/postgresql/bootstrap.py, basebackup),
 *       in place of Spilo's methods (configure_spilo.py:371-375): its {@code basebackup_fast_xlog}
 *       (scripts/basebackup.sh:100, pg_basebackup without a WAL directory) and {@code wal_e} (scripts/wale_restore.sh:87-91,
 *       WAL-G's backup-fetch, which makes pg_wal a directory inside the data directory), so replicas stream their
 *       base backup from a member, never from the archive.</li>
 * </ul>
 *
 * <p>When Patroni removes a data directory to make it again, it removes pg_wal's target with it
 * (patroni/postgresql/__init__.py, remove_data_directory), so pg_basebackup finds the WAL directory absent.
 */
final class WalVolumes {
  private WalVolumes() {}

  static ObjectNode claimTemplate(String cluster, WalVolume wal) {
    return StatefulSets.claimTemplate(
        cluster, Spilo.WAL_VOLUME, wal.size(), wal.storageClassName());
  }

  static ObjectNode volumeMount() {
    return Json.object().put("name", Spilo.WAL_VOLUME).put("mountPath", Spilo.WAL_PATH);
  }

  /** Adds the initdb and replica-creation settings to Spilo's configuration (a Patroni configuration). */
  static void configure(ObjectNode config) {
    ArrayNode initdb = config.withObjectProperty("bootstrap").putArray("initdb");
    initdb.addObject().put(Spilo.INITDB_ENCODING.get(0), Spilo.INITDB_ENCODING.get(1));
    initdb.addObject().put(Spilo.INITDB_LOCALE.get(0), Spilo.INITDB_LOCALE.get(1));
    initdb.add(Spilo.INITDB_CHECKSUMS);
    initdb.addObject().put("waldir", Spilo.WAL_DIRECTORY);
    ObjectNode postgresql = config.withObjectProperty("postgresql");
    // Spilo's template calls the list create_replica_method; the same key, so that this list
    // replaces Spilo's.
    postgresql.putArray("create_replica_method").add("basebackup");
    ArrayNode basebackup = postgresql.putArray("basebackup");
    basebackup.addObject().put("waldir", Spilo.WAL_DIRECTORY);
    basebackup.addObject().put("checkpoint", "fast");
  }
}
