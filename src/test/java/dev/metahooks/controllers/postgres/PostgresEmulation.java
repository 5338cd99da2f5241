package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Round;
import dev.metahooks.emulator.World;
import dev.metahooks.testing.FixedSources;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/** The pieces every PostgresCluster scenario under the emulated Metacontroller starts from. */
final class PostgresEmulation {
  private PostgresEmulation() {}

  /** Time from the cluster's clock, and secrets that differ on every call (a regenerated password would show). */
  static Sources sources(Cluster cluster) {
    AtomicLong secretsMade = new AtomicLong();
    return new Sources() {
      @Override
      public java.time.Instant now() {
        return cluster.now();
      }

      @Override
      public String secret(String purpose, int length) {
        return FixedSources.INSTANCE.secret(purpose + "#" + secretsMade.incrementAndGet(), length);
      }
    };
  }

  /**
   * The store's credentials Secret {@code name} of {@code namespace}, given to {@code clusters} (their mark set, as
   * the Secret's owner does): a cluster uses only what is given to it.
   */
  static void giveStoreSecret(Cluster cluster, String namespace, String name, String... clusters) {
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    ObjectNode labels =
        secret
            .putObject("metadata")
            .put("name", name)
            .put("namespace", namespace)
            .putObject("labels");
    for (String given : clusters) {
      labels.put(SecretMarks.label(given), SecretMarks.GIVEN);
    }
    secret
        .putObject("stringData")
        .put("AWS_ACCESS_KEY_ID", "example-key-id")
        .put("AWS_SECRET_ACCESS_KEY", "example-secret-key");
    cluster.create(secret);
  }

  /** Time from the cluster's clock, and the same secret for the same purpose (answers repeatable by name). */
  static Sources fixedSecrets(Cluster cluster) {
    return new Sources() {
      @Override
      public java.time.Instant now() {
        return cluster.now();
      }

      @Override
      public String secret(String purpose, int length) {
        return FixedSources.INSTANCE.secret(purpose, length);
      }
    };
  }

  /**
   * Metacontroller with the real controller manifest calling the hooks, StatefulSets that run pods, Patroni
   * labelling the leader, and the clock moving by {@code round} each round.
   */
  static Metacontroller metacontroller(Cluster cluster, LocalHooks hooks, Duration round) {
    Metacontroller mc =
        Metacontroller.forManifests(
            cluster, hooks.baseUrl(), "metacontroller/postgrescluster.yaml");
    mc.world(
        World.standard()
            .statefulSetPods(true)
            .add("patroni", PatroniSimulation::step)
            .add("clock", c -> c.advance(round)));
    return mc;
  }

  /** One more round (the clock moves on) writes nothing: the parent's status is byte-stable, nothing loops. */
  static void assertQuiet(Metacontroller mc, Supplier<JsonNode> parent) {
    String before = parent.get().path("status").toString();
    Round round = mc.round();
    assertThat(round.writes()).as("writes of a round after settling").isEmpty();
    assertThat(round.errors()).isEmpty();
    assertThat(parent.get().path("status").toString()).isEqualTo(before);
  }
}
