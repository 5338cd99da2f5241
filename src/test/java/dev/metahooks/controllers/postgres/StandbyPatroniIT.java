package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.SecretData;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.testsupport.Kubelet;
import dev.metahooks.testsupport.PatroniCluster;
import dev.metahooks.testsupport.PatroniVersion;
import dev.metahooks.testsupport.PostgresServer;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A streaming standby on real Patroni (each {@link PatroniVersion}, Debian's PostgreSQL, etcd): the source cluster {@code orders}
 * and the standby {@code orders-dr}, each with its own DCS. The standby's Patroni gets the {@code standby_cluster}
 * that Spilo makes of the rendered {@code STANDBY_HOST} and {@code STANDBY_PORT} (configure_spilo.py:174-194 at
 * 4.0-p3; Patroni's own {@code basebackup} stands in for Spilo's {@code basebackup_fast_xlog} script) and the
 * replication and superuser passwords of the standby's rendered Secrets, which the hook copied from the source's.
 * It follows the source read-only; then the rendered parameters Job of the spec without {@code standby} promotes it.
 */
class StandbyPatroniIT {
  @ParameterizedTest
  @EnumSource(PatroniVersion.class)
  void aStreamingStandbyFollowsTheSourceReadOnlyAndTheRenderedParametersJobPromotesIt(
      PatroniVersion version) {
    ObservedRequests source = new ObservedRequests("orders", Json.object().put("instances", 1));
    source.sync();
    PatroniCluster primary =
        PatroniCluster.start(
            version,
            "orders",
            1,
            Spilo.RESTAPI_USER,
            password(source, "orders-restapi"),
            Map.of(),
            Json.object(),
            Optional.empty(),
            (index, member) -> credentials(source, "orders"));
    PatroniCluster standby = null;
    try {
      primary.query(0, "CREATE TABLE orders AS SELECT g AS id FROM generate_series(1, 1000) g");

      ObjectNode spec = Json.object().put("instances", 1);
      spec.putObject("standby")
          .put("cluster", "orders")
          .put("host", "127.0.0.1")
          .put("port", primary.postgresPort(0));
      ObservedRequests dr = new ObservedRequests("orders-dr", spec);
      source
          .observedSecrets()
          .forEach(secret -> dr.relatedSecrets.put(secret.at("/metadata/name").asText(), secret));
      dr.sync();
      assertThat(password(dr, "orders-dr-replication"))
          .isEqualTo(password(source, "orders-replication"));
      Map<String, JsonNode> env = StandbyClusterTest.env(dr.children.get("StatefulSet/orders-dr"));
      ObjectNode standbyCluster =
          Json.object()
              .put("host", env.get("STANDBY_HOST").asText())
              .put("port", Integer.parseInt(env.get("STANDBY_PORT").asText()));
      standbyCluster.putArray("create_replica_methods").add("basebackup");
      ObjectNode dcs = Json.object().set("standby_cluster", standbyCluster);
      standby =
          PatroniCluster.start(
              version,
              "orders-dr",
              1,
              Spilo.RESTAPI_USER,
              password(dr, "orders-dr-restapi"),
              Map.of(),
              dcs,
              Optional.empty(),
              (index, member) -> credentials(dr, "orders-dr"));
      assertThat(role(standby)).isEqualTo("standby_leader");
      assertThat(standby.query(0, "SELECT count(*) FROM orders")).isEqualTo("1000");
      primary.query(0, "INSERT INTO orders SELECT g FROM generate_series(1001, 1500) g");
      PatroniCluster follower = standby;
      follower.await(
          Duration.ofSeconds(60),
          "the standby replaying the source's insert",
          c -> c.query(0, "SELECT count(*) FROM orders").equals("1500"));
      assertThat(standby.query(0, "SELECT pg_is_in_recovery()")).as("read-only").isEqualTo("t");

      dr.runAllReady();
      dr.sync();
      dr.edit(s -> s.remove("standby"));
      dr.sync();
      ObjectNode job =
          dr.children.entrySet().stream()
              .filter(e -> e.getKey().startsWith("Job/orders-dr-parameters-"))
              .map(Map.Entry::getValue)
              .findFirst()
              .orElseThrow();
      Kubelet.Container container = RenderedContainers.of(dr, job, "parameters", List.of());
      assertThat(container.environment().get("PATCH")).contains("\"standby_cluster\":null");
      // The read-back connects to each member as the superuser (the password of the rendered
      // Secret, which the
      // members here were started with); they serve no TLS.
      Map<String, String> local = new HashMap<>(standby.clientEnvironment());
      local.put("PATRONI_URL", standby.restUrl(0));
      PostgresServer.Result patched =
          RenderedContainers.run(container, local, Duration.ofMinutes(6));
      assertThat(patched.exitCode()).as(patched.output()).isZero();
      follower.await(
          Duration.ofSeconds(60), "the standby leader promoted", c -> "leader".equals(role(c)));
      follower.await(
          Duration.ofSeconds(30),
          "writes accepted",
          c -> c.query(0, "SELECT pg_is_in_recovery()").equals("f"));
      standby.query(0, "INSERT INTO orders VALUES (1501)");
      assertThat(standby.query(0, "SELECT count(*) FROM orders")).isEqualTo("1501");
      assertThat(standby.get(0, "/config").json().has("standby_cluster")).isFalse();
    } finally {
      if (standby != null) {
        standby.close();
      }
      primary.close();
    }
  }

  /** The member's superuser and replication passwords from the world's rendered Secrets. */
  private static ObjectNode credentials(ObservedRequests world, String cluster) {
    ObjectNode postgresql = Json.object();
    ObjectNode authentication = postgresql.putObject("authentication");
    authentication
        .putObject("superuser")
        .put("username", Spilo.SUPERUSER)
        .put("password", password(world, Names.superuserSecret(cluster)));
    authentication
        .putObject("replication")
        .put("username", Spilo.REPLICATION_USER)
        .put("password", password(world, Names.replicationSecret(cluster)));
    return Json.object().set("postgresql", postgresql);
  }

  private static String password(ObservedRequests world, String secret) {
    return SecretData.value(world.children.get("Secret/" + secret), "password").orElseThrow();
  }

  private static String role(PatroniCluster cluster) {
    return cluster.cluster().path("members").path(0).path("role").asText();
  }
}
