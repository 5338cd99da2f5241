package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.PatroniCluster;
import dev.metahooks.testsupport.PatroniVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * spec.storage.wal on a real two-member Patroni cluster (each {@link PatroniVersion}, Debian's PostgreSQL, etcd): the rendered
 * Patroni settings (initdb's options, the replica creation method and pg_basebackup's options, taken from the
 * rendered SPILO_CONFIGURATION) put the primary's and the replica's pg_wal each on its own WAL directory, the
 * directory a pod mounts its WAL volume at, and WAL is written there.
 */
class WalVolumePatroniIT {
  @ParameterizedTest
  @EnumSource(PatroniVersion.class)
  void thePrimaryAndTheReplicaKeepTheirWalOnTheirOwnWalVolume(PatroniVersion version)
      throws IOException {
    ClusterSpec spec =
        BuilderTestSupport.spec(
            s -> s.put("instances", 2).putObject("storage").putObject("wal").put("size", "2Gi"));
    JsonNode rendered =
        BuilderTestSupport.spiloConfiguration(BuilderTestSupport.statefulSet("orders", spec));
    ObjectNode settings = Json.object();
    settings.putObject("bootstrap").set("initdb", rendered.at("/bootstrap/initdb"));
    settings
        .putObject("postgresql")
        .set("create_replica_method", rendered.at("/postgresql/create_replica_method"));
    settings
        .withObjectProperty("postgresql")
        .set("basebackup", rendered.at("/postgresql/basebackup"));
    assertThat(settings.toString()).contains("{\"waldir\":\"" + Spilo.WAL_DIRECTORY + "\"}");

    PatroniCluster patroni =
        PatroniCluster.start(
            version,
            "orders",
            2,
            Spilo.RESTAPI_USER,
            "restapi-secret",
            Map.of(),
            Json.object(),
            Optional.empty(),
            (index, member) -> memberSettings(settings, member));
    try {
      String primary = patroni.leader().orElseThrow();
      assertThat(primary).isEqualTo("orders-0");
      patroni.query(0, "CREATE TABLE filler AS SELECT g FROM generate_series(1, 100000) g");
      patroni.query(0, "SELECT pg_switch_wal()");
      patroni.query(0, "CHECKPOINT");
      for (int i = 0; i < 2; i++) {
        Path member = patroni.memberDirectory(i);
        Path pgWal = member.resolve("data/pg_wal");
        assertThat(Files.isSymbolicLink(pgWal)).as("member %d's pg_wal is a link", i).isTrue();
        assertThat(Files.readSymbolicLink(pgWal)).isEqualTo(walDirectory(member));
        assertThat(segments(walDirectory(member)))
            .as("member %d's WAL segments on its WAL volume", i)
            .isNotEmpty();
      }
      // Streaming is asynchronous: the replica shows the table once it has replayed it.
      patroni.await(
          Duration.ofSeconds(60),
          "the replica to replay the table",
          c ->
              c.query(1, "SELECT count(*) FROM pg_catalog.pg_class WHERE relname = 'filler'")
                  .equals("1"));
      assertThat(patroni.query(1, "SELECT count(*) FROM filler"))
          .as("the replica streams")
          .isEqualTo("100000");
      assertThat(patroni.query(0, "SELECT current_setting('data_checksums')")).isEqualTo("on");
    } finally {
      patroni.close();
    }
  }

  /** The rendered settings with this member's WAL directory for the pods' one, below its own WAL "mount". */
  private static ObjectNode memberSettings(ObjectNode settings, Path member) {
    try {
      Files.createDirectories(walDirectory(member).getParent());
      String text =
          settings
              .toString()
              .replace(Spilo.WAL_DIRECTORY, walDirectory(member).toString())
              // This machine has no en_US locale; Spilo's image has. The option stays, with a
              // locale that is here.
              .replace(Spilo.INITDB_LOCALE.get(1), "C.UTF-8");
      return (ObjectNode) JsonTrees.MAPPER.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Path walDirectory(Path member) {
    return member.resolve("pgwal/pg_wal");
  }

  private static List<String> segments(Path directory) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.matches("[0-9A-F]{24}"))
          .toList();
    }
  }
}
