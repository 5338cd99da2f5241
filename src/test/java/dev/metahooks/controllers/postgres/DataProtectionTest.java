package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.Hook;
import dev.metahooks.api.Json;
import dev.metahooks.api.Sources;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.InProcessHooks;
import dev.metahooks.testing.FixedSources;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The design's rules that protect data, one test each (and the fixtures show each in a full answer). */
public class DataProtectionTest {
  /** A Sources that fails the test if a password is asked for. */
  static final Sources NO_NEW_SECRETS =
      new Sources() {
        @Override
        public Instant now() {
          return FixedSources.NOW;
        }

        @Override
        public String secret(String purpose, int length) {
          throw new IllegalStateException("a password was generated for " + purpose);
        }
      };

  public static ObservedRequests readyHa() {
    ObservedRequests world = ObservedRequests.fromSample("postgrescluster-ha.yaml");
    world.sync();
    world.runAllReady();
    world.finishUsersJob(true);
    world.sync();
    return world;
  }

  static JsonNode sync(ObservedRequests world, Sources sources) {
    return JsonTrees.MAPPER.valueToTree(
        PostgresClusterController.sync(
            CompositeRequest.read(world.request(false), Hook.SYNC), sources));
  }

  static TreeMap<String, JsonNode> children(JsonNode answer) {
    TreeMap<String, JsonNode> map = new TreeMap<>();
    answer
        .path("children")
        .forEach(
            c ->
                map.put(
                    c.path("kind").asText() + "/" + c.path("metadata").path("name").asText(), c));
    return map;
  }

  /** What re-emitting the observed children unchanged means: exactly what Metacontroller last applied. */
  static TreeMap<String, JsonNode> lastApplied(ObservedRequests world) {
    TreeMap<String, JsonNode> map = new TreeMap<>();
    world.children.forEach(
        (key, child) -> map.put(key, Preserved.lastApplied(child).orElseThrow()));
    return map;
  }

  static String condition(JsonNode answer, String type, String field) {
    for (JsonNode c : answer.path("status").path("conditions")) {
      if (c.path("type").asText().equals(type)) {
        return c.path(field).asText();
      }
    }
    return null;
  }

  @Test
  void invalidSpecNamesTheFieldAndReEmitsTheObservedChildrenUnchanged() {
    ObservedRequests world = readyHa();
    world.edit(spec -> spec.put("postgresVersion", 16).put("instances", 1));
    JsonNode answer = sync(world, NO_NEW_SECRETS);
    assertThat(answer.at("/status/phase").asText()).isEqualTo("Invalid");
    assertThat(condition(answer, "SpecValid", "status")).isEqualTo("False");
    assertThat(condition(answer, "SpecValid", "message"))
        .startsWith("spec.postgresVersion: cannot decrease from 17 to 16");
    assertThat(children(answer)).isEqualTo(lastApplied(world));
    assertThat(children(answer).get("StatefulSet/orders").at("/spec/replicas").asInt())
        .isEqualTo(3);
  }

  @Test
  void anInternalFaultIsA500NeverA200WithFewerChildren() {
    ObservedRequests world = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    InProcessHooks.Response answer =
        InProcessHooks.of(List.of(PostgresClusterController.controller(NO_NEW_SECRETS)))
            .call("postgrescluster", "sync", world.request(false).toString());
    assertThat(answer.status()).isEqualTo(500);
  }

  @Test
  void theLastGuardRefusesToDropAnObservedSecretOrTheStatefulSet() {
    ObservedRequests world = readyHa();
    ObservedCluster observed = world.observed();
    List<ObjectNode> all = new ArrayList<>(Preserved.all(observed.children()));
    Children.checkNothingLost(observed, all);
    List<ObjectNode> withoutSecret =
        all.stream().filter(c -> !Names.of(c).equals("orders.reporting")).toList();
    assertThatThrownBy(() -> Children.checkNothingLost(observed, withoutSecret))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Secret/orders.reporting");
    List<ObjectNode> withoutSts =
        all.stream().filter(c -> !c.path("kind").asText().equals("StatefulSet")).toList();
    assertThatThrownBy(() -> Children.checkNothingLost(observed, withoutSts))
        .hasMessageContaining("StatefulSet/orders");
  }

  @Test
  void aRequestWithoutADeclaredChildTypeIsRefused() {
    ObservedRequests world = readyHa();
    ObjectNode request = world.request(false);
    ((ObjectNode) request.get("children")).remove("Secret.v1");
    InProcessHooks.Response answer =
        InProcessHooks.of(List.of(PostgresClusterController.controller(FixedSources.INSTANCE)))
            .call("postgrescluster", "sync", request.toString());
    assertThat(answer.status()).isEqualTo(422);
  }

  /** A cluster being deleted whose pods are gone and whose Patroni ConfigMaps remain. */
  static ObservedRequests deletedWithConfigMapsLeft() {
    ObservedRequests world = ObservedRequests.fromSample("postgrescluster-dev.yaml");
    world.sync();
    world.runAllReady();
    world.patroniConfigMap("config");
    world.patroniConfigMap("leader");
    world.sync();
    world.deletionTimestamp = "2026-01-01T00:00:00Z";
    world.apply(world.call(true));
    world.pods.clear();
    return world;
  }

  static InProcessHooks.Response dispatch(String hook, ObjectNode request) {
    return InProcessHooks.of(List.of(PostgresClusterController.controller(FixedSources.INSTANCE)))
        .call("postgrescluster", hook, request.toString());
  }

  @Test
  void aFinalizeWithoutPatronisConfigMapsGroupIsRefusedNotFinalized() {
    ObservedRequests world = deletedWithConfigMapsLeft();
    assertThat(world.configMaps).as("Patroni's ConfigMaps outlive the pods").isNotEmpty();
    ObjectNode complete = world.request(true);
    assertThat(dispatch("finalize", complete).status()).isEqualTo(200);
    assertThat(dispatch("finalize", complete).json().path("finalized").asBoolean()).isFalse();

    ObjectNode withoutConfigMaps = complete.deepCopy();
    ((ObjectNode) withoutConfigMaps.get("related")).remove("ConfigMap.v1");
    InProcessHooks.Response answer = dispatch("finalize", withoutConfigMaps);
    assertThat(answer.status()).isEqualTo(422);
    assertThat(answer.json().toString()).contains("related['ConfigMap.v1']").contains("configmaps");

    ObjectNode withoutRelated = complete.deepCopy();
    withoutRelated.remove("related");
    assertThat(dispatch("finalize", withoutRelated).status()).isEqualTo(422);
    withoutRelated.putObject("related");
    assertThat(dispatch("finalize", withoutRelated).status()).isEqualTo(422);
  }

  @Test
  void aSyncWithoutARelatedGroupOfItsRulesIsRefused() {
    ObservedRequests world = readyHa();
    for (String group :
        List.of("Pod.v1", "ConfigMap.v1", "PostgresCluster.metahooks.dev/v1alpha1")) {
      ObjectNode request = world.request(false);
      ((ObjectNode) request.get("related")).remove(group);
      InProcessHooks.Response answer = dispatch("sync", request);
      assertThat(answer.status()).as(group).isEqualTo(422);
      assertThat(answer.json().toString()).as(group).contains("related['" + group + "']");
    }
    ObservedRequests withTls = readyHa();
    withTls.edit(spec -> spec.putObject("tls").put("secretName", "orders-tls"));
    ObjectNode request = withTls.request(false);
    assertThat(request.at("/related/Secret.v1").isObject()).isTrue();
    assertThat(dispatch("sync", request).status()).isEqualTo(200);
    ((ObjectNode) request.get("related")).remove("Secret.v1");
    assertThat(dispatch("sync", request).status()).isEqualTo(422);
  }

  @Test
  void theCustomizeRulesAreTheGroupsASyncRequires() {
    ObservedRequests world = readyHa();
    world.hookVersion = "v2";
    world.edit(spec -> spec.putObject("tls").put("secretName", "orders-tls"));
    ObjectNode customize = Json.object();
    customize.set("controller", world.request(false).get("controller"));
    customize.set("parent", world.parent());
    JsonNode rules =
        JsonTrees.MAPPER
            .valueToTree(
                PostgresClusterController.customize(
                    dev.metahooks.api.CustomizeRequest.read(customize)))
            .path("relatedResources");
    List<String> resources = new ArrayList<>();
    rules.forEach(
        rule ->
            resources.add(rule.path("apiVersion").asText() + " " + rule.path("resource").asText()));
    // The claims and StorageClasses too, though a sync requires them only when the volumes grow
    // (VolumeGrowth).
    assertThat(resources)
        .containsExactly(
            "v1 pods",
            "v1 configmaps",
            "metahooks.dev/v1alpha1 postgresclusters",
            "v1 secrets",
            "v1 persistentvolumeclaims",
            "storage.k8s.io/v1 storageclasses");
  }

  @Test
  void scaleDownKeepsVolumesUnlessWhenScaledIsDelete() {
    ObservedRequests world = readyHa();
    world.edit(spec -> spec.put("instances", 1));
    JsonNode sts = children(sync(world, NO_NEW_SECRETS)).get("StatefulSet/orders");
    assertThat(sts.at("/spec/replicas").asInt()).isEqualTo(1);
    assertThat(sts.at("/spec/persistentVolumeClaimRetentionPolicy/whenScaled").asText())
        .isEqualTo("Retain");
    world.edit(
        spec ->
            spec.withObjectProperty("storage")
                .withObjectProperty("retentionPolicy")
                .put("whenScaled", "Delete"));
    assertThat(
            children(sync(world, NO_NEW_SECRETS))
                .get("StatefulSet/orders")
                .at("/spec/persistentVolumeClaimRetentionPolicy/whenScaled")
                .asText())
        .isEqualTo("Delete");
    world.edit(spec -> spec.put("instances", 0));
    assertThat(
            children(sync(world, NO_NEW_SECRETS))
                .get("StatefulSet/orders")
                .at("/spec/persistentVolumeClaimRetentionPolicy/whenScaled")
                .asText())
        .isEqualTo("Retain");
  }

  @Test
  void secretsAreNeverRegeneratedWhileTheyExist() {
    ObservedRequests world = readyHa();
    world.edit(
        spec ->
            spec.put("instances", 5)
                .withObjectProperty("postgresql")
                .withObjectProperty("parameters")
                .put("work_mem", "8MB"));
    JsonNode answer = sync(world, NO_NEW_SECRETS);
    world
        .observedSecrets()
        .forEach(
            secret ->
                assertThat(children(answer).get("Secret/" + Names.of(secret)))
                    .isEqualTo(Preserved.lastApplied(secret).orElseThrow()));
  }

  @Test
  void pausedFreezesEverythingIncludingNewUsersAndScale() {
    ObservedRequests world = readyHa();
    world.edit(
        spec -> {
          spec.put("paused", true).put("instances", 1);
          spec.withArray("users").addObject().put("name", "newcomer");
        });
    JsonNode answer = sync(world, NO_NEW_SECRETS);
    assertThat(answer.at("/status/phase").asText()).isEqualTo("Paused");
    assertThat(children(answer)).isEqualTo(lastApplied(world));
  }

  @Test
  void deletionProtectionBlocksFinalizeAndKeepsEveryChild() {
    ObservedRequests world = readyHa();
    world.deletionTimestamp = "2026-01-01T00:00:00Z";
    JsonNode answer = world.call(true);
    assertThat(answer.path("finalized").asBoolean()).isFalse();
    assertThat(condition(answer, "DeletionBlocked", "status")).isEqualTo("True");
    assertThat(condition(answer, "DeletionBlocked", "reason")).isEqualTo("DeletionProtection");
    assertThat(children(answer)).isEqualTo(lastApplied(world));
  }

  @Test
  void withoutProtectionFinalizeDeletesChildrenThenFinishesOnceTheStatefulSetIsGone() {
    ObservedRequests world = readyHa();
    world.edit(spec -> spec.put("deletionProtection", false));
    world.deletionTimestamp = "2026-01-01T00:00:00Z";
    JsonNode first = world.call(true);
    assertThat(first.path("children").size()).isZero();
    assertThat(first.path("finalized").asBoolean()).isFalse();
    world.apply(first);
    world.pods.clear();
    JsonNode done = world.call(true);
    assertThat(done.path("finalized").asBoolean()).isTrue();
    assertThat(done.at("/status/phase").asText()).isEqualTo("Deleting");
  }

  @Test
  void aFinalizeCallOnTheSyncUrlIsTreatedAsFinalize() {
    ObservedRequests world = readyHa();
    world.deletionTimestamp = "2026-01-01T00:00:00Z";
    ObjectNode request = world.request(true);
    InProcessHooks.Response answer =
        InProcessHooks.of(List.of(PostgresClusterController.controller(FixedSources.INSTANCE)))
            .call("postgrescluster", "sync", request.toString());
    assertThat(answer.json().path("finalized").asBoolean(true)).isFalse();
    assertThat(answer.json().at("/status/phase").asText()).isEqualTo("Deleting");
  }

  @Test
  void theSameObservedStateGivesAByteIdenticalAnswer() throws Exception {
    ObservedRequests world = readyHa();
    world.runPods(Set.of(1), 0, true);
    String first = JsonTrees.MAPPER.writeValueAsString(sync(world, NO_NEW_SECRETS));
    String second = JsonTrees.MAPPER.writeValueAsString(sync(world, NO_NEW_SECRETS));
    assertThat(second).isEqualTo(first);
    world.apply(JsonTrees.MAPPER.readTree(first));
    String third = JsonTrees.MAPPER.writeValueAsString(sync(world, NO_NEW_SECRETS));
    assertThat(JsonTrees.MAPPER.readTree(third).get("status"))
        .isEqualTo(JsonTrees.MAPPER.readTree(first).get("status"));
  }
}
