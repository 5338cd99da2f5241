package dev.metahooks.controllers.postgres.children.access;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.BuilderTestSupport;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.base.Scram;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testing.kube.KubeSchema;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

public class SecretsTest {
  public static String decoded(JsonNode secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.path("data").path(key).asText()), StandardCharsets.UTF_8);
  }

  static Map<String, JsonNode> byName(List<ObjectNode> secrets) {
    Map<String, JsonNode> map = new java.util.TreeMap<>();
    secrets.forEach(s -> map.put(Names.of(s), s));
    return map;
  }

  /** Records the purposes passwords were asked for. */
  static final class RecordingSources implements Sources {
    final List<String> purposes = new ArrayList<>();

    @Override
    public Instant now() {
      return FixedSources.NOW;
    }

    @Override
    public String secret(String purpose, int length) {
      purposes.add(purpose);
      return FixedSources.INSTANCE.secret(purpose, length);
    }
  }

  @Test
  void firstSyncGeneratesEveryPasswordOnce() {
    ObservedRequests world = ObservedRequests.fromSample("postgrescluster-ha.yaml");
    RecordingSources sources = new RecordingSources();
    ObservedCluster observed = world.observed();
    ClusterSpec spec = SpecReader.read(world.parent()).spec();
    Map<String, JsonNode> secrets =
        byName(
            BuilderTestSupport.secrets(
                "orders", "shop", spec, observed, BuilderTestSupport.NO_TLS, sources));
    secrets.values().forEach(KubeSchema::assertValid);
    assertThat(secrets)
        .containsOnlyKeys(
            "orders-superuser",
            "orders-replication",
            "orders-restapi",
            "orders.orders-app",
            "orders.reporting");
    assertThat(sources.purposes)
        .containsExactly(
            "shop/orders-superuser/password",
            "shop/orders-replication/password",
            "shop/orders-restapi/password",
            "shop/orders.orders-app/password",
            "shop/orders.orders-app/salt",
            "shop/orders.reporting/password",
            "shop/orders.reporting/salt");
    JsonNode app = secrets.get("orders.orders-app");
    String password = decoded(app, "password");
    assertThat(password).hasSize(32).matches("[A-Za-z0-9]+");
    assertThat(decoded(app, "username")).isEqualTo("orders-app");
    assertThat(decoded(app, Secrets.VERIFIER))
        .isEqualTo(
            Scram.verifier(
                password,
                FixedSources.INSTANCE
                    .secret("shop/orders.orders-app/salt", Secrets.SALT_LENGTH)
                    .getBytes(StandardCharsets.US_ASCII)));
    assertThat(decoded(app, "host")).isEqualTo("orders-rw.shop.svc");
    assertThat(decoded(app, "port")).isEqualTo("5432");
    assertThat(decoded(app, "dbname")).isEqualTo("orders");
    assertThat(decoded(app, "uri"))
        .isEqualTo(
            "postgresql://orders-app:"
                + password
                + "@orders-rw.shop.svc:5432/orders?sslmode=require");
    assertThat(decoded(app, "jdbc-uri"))
        .isEqualTo(
            "jdbc:postgresql://orders-rw.shop.svc:5432/orders?user=orders-app&password="
                + password
                + "&sslmode=require");
    assertThat(decoded(secrets.get("orders.reporting"), "dbname")).isEqualTo("postgres");
    assertThat(decoded(secrets.get("orders-superuser"), "username")).isEqualTo("postgres");
    assertThat(decoded(secrets.get("orders-replication"), "username")).isEqualTo("standby");
  }

  @Test
  void observedSecretsAreEchoedNeverRegenerated() {
    ObservedRequests world = ObservedRequests.fromSample("postgrescluster-ha.yaml");
    world.sync();
    // Someone changed a password in the observed Secret: it is what the database now uses, keep it.
    ObjectNode superuser = world.children.get("Secret/orders-superuser");
    ObjectNode applied = Preserved.lastApplied(superuser).orElseThrow();
    applied
        .withObjectProperty("data")
        .put(
            "password",
            Base64.getEncoder().encodeToString("changed".getBytes(StandardCharsets.UTF_8)));
    superuser
        .withObjectProperty("metadata")
        .withObjectProperty("annotations")
        .put(Preserved.LAST_APPLIED, applied.toString());
    RecordingSources sources = new RecordingSources();
    ObservedCluster observed = world.observed();
    Map<String, JsonNode> secrets =
        byName(
            BuilderTestSupport.secrets(
                "orders",
                "shop",
                SpecReader.read(world.parent()).spec(),
                observed,
                BuilderTestSupport.NO_TLS,
                sources));
    assertThat(sources.purposes).isEmpty();
    assertThat(decoded(secrets.get("orders-superuser"), "password")).isEqualTo("changed");
  }

  @Test
  void aRemovedUsersSecretStays() {
    ObservedRequests world = ObservedRequests.fromSample("postgrescluster-ha.yaml");
    world.sync();
    world.edit(spec -> spec.remove("users"));
    ObservedCluster observed = world.observed();
    Map<String, JsonNode> secrets =
        byName(
            BuilderTestSupport.secrets(
                "orders",
                "shop",
                SpecReader.read(world.parent()).spec(),
                observed,
                BuilderTestSupport.NO_TLS,
                new RecordingSources()));
    assertThat(secrets)
        .containsOnlyKeys(
            "orders-superuser",
            "orders-replication",
            "orders-restapi",
            "orders.orders-app",
            "orders.reporting");
  }

  /** Every Secret name that a cluster with these users renders, as name → "cluster/secret". */
  private static Map<String, String> secretNames(String cluster, List<String> users) {
    ObjectNode spec = dev.metahooks.api.Json.object();
    users.forEach(user -> spec.withArray("users").addObject().put("name", user));
    ObservedRequests world = new ObservedRequests(cluster, spec);
    Map<String, String> names = new java.util.TreeMap<>();
    for (JsonNode child : world.call(false).path("children")) {
      if (child.path("kind").asText().equals("Secret")) {
        names.put(Names.of(child), cluster + "/" + Names.of(child));
      }
    }
    return names;
  }

  @Test
  void secretNamesOfTwoClustersInOneNamespaceNeverCollide() {
    // Pairs chosen around the separators: cluster x with user superuser was x-app-superuser, which
    // is cluster
    // x-app's superuser Secret under the earlier names.
    List<String> clusters =
        List.of(
            "x",
            "x-app",
            "x-app-x",
            "a",
            "a-b",
            "a-b-c",
            "superuser",
            "x-superuser",
            "x-restapi",
            "x-replication",
            "app",
            "b-app-c");
    List<String> users =
        List.of(
            "superuser",
            "replication",
            "restapi",
            "x",
            "app",
            "app-superuser",
            "b",
            "c",
            "b-c",
            "superuser-x",
            "x-app",
            "app-x");
    Map<String, String> owners = new java.util.HashMap<>();
    int checked = 0;
    for (String cluster : clusters) {
      for (Map.Entry<String, String> name : secretNames(cluster, users).entrySet()) {
        String before = owners.putIfAbsent(name.getKey(), name.getValue());
        assertThat(before).as("Secret %s of %s", name.getKey(), name.getValue()).isNull();
        checked++;
      }
    }
    assertThat(checked).isEqualTo(clusters.size() * (users.size() + 3));
  }
}
