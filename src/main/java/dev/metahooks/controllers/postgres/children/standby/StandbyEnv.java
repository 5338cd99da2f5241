package dev.metahooks.controllers.postgres.children.standby;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.children.backup.WalArchive;
import dev.metahooks.controllers.postgres.plan.StandbyPhase;
import dev.metahooks.controllers.postgres.spec.StandbySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Spilo's {@code STANDBY_*} variables ({@code spec.standby}). Spilo writes them only into the bootstrap DCS
 * configuration's {@code standby_cluster} (configure_spilo.py:174-194 at 4.0-p3): the store as
 * {@code STANDBY_WALE_S3_PREFIX} and its endpoint, region and credentials, which go into an env dir of their own
 * ({@code STANDBY_WALE_ENV_DIR}, configure_spilo.py:477-490 and 1212-1214) that the restore command and
 * {@code bootstrap_standby_with_wale} read (configure_spilo.py:182, 387-394); or {@code STANDBY_HOST} and
 * {@code STANDBY_PORT}, where Patroni streams from as this cluster's own {@code standby} user
 * (configure_spilo.py:359-361).
 */
public final class StandbyEnv {
  public static final String PREFIX = StandbyPhase.ENV_PREFIX;

  private StandbyEnv() {}

  public static List<ObjectNode> env(Optional<StandbySpec> standby) {
    List<ObjectNode> env = new ArrayList<>();
    standby.ifPresent(
        given -> {
          WalArchive.value(env, PREFIX + "SCOPE", given.cluster());
          given.archive().ifPresent(s3 -> WalArchive.store(env, PREFIX, s3));
          given
              .streaming()
              .ifPresent(
                  stream -> {
                    WalArchive.value(env, PREFIX + "HOST", stream.host());
                    WalArchive.value(env, PREFIX + "PORT", String.valueOf(stream.port()));
                  });
        });
    return env;
  }
}
