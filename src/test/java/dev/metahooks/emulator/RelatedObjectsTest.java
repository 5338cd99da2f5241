package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeRequest;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.CustomizeResponse.RelatedResourceRule;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Related objects from customize rules, and the v1/v2 differences of object maps: one controller, served
 * twice by manifests that differ only in hook versions (and in the parent label they select).
 */
class RelatedObjectsTest {
  private static LocalHooks hooks;
  private Cluster cluster;
  private Metacontroller mc;

  /** ConfigMaps of team blue, Namespaces of env prod, and optionally one ConfigMap by namespace and name. */
  static CustomizeResponse customize(CustomizeRequest request) {
    List<RelatedResourceRule> rules = new ArrayList<>();
    ObjectNode blue = Json.object();
    blue.putObject("matchLabels").put("team", "blue");
    rules.add(RelatedResourceRule.of("v1", "configmaps").withLabelSelector(blue));
    ObjectNode prod = Json.object();
    prod.putArray("matchExpressions")
        .addObject()
        .put("key", "env")
        .put("operator", "In")
        .putArray("values")
        .add("prod");
    rules.add(RelatedResourceRule.of("v1", "namespaces").withLabelSelector(prod));
    if (request.parent().path("spec").path("byName").asBoolean(false)) {
      rules.add(
          RelatedResourceRule.of("v1", "secrets").inNamespace("b").withNames(List.of("token")));
    }
    return new CustomizeResponse(rules);
  }

  /** Reports the keys it was sent, and keeps one child so that children keys show too. */
  static CompositeResponse sync(CompositeRequest request) {
    ObjectNode status = Json.object();
    keys(status.putArray("configMaps"), request.related().keys("v1", "ConfigMap"));
    keys(status.putArray("namespaces"), request.related().keys("v1", "Namespace"));
    keys(status.putArray("secrets"), request.related().keys("v1", "Secret"));
    keys(status.putArray("children"), request.children().keys("v1", "ConfigMap"));
    return CompositeResponse.of(
        status, List.of(TestKinds.configMap(request.name() + "-list", "k", "v")));
  }

  private static void keys(ArrayNode array, List<String> keys) {
    keys.forEach(array::add);
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("lister")
                .sync(RelatedObjectsTest::sync)
                .customize(RelatedObjectsTest::customize)
                .build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private static String manifest(String version) {
    return """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: lister-%1$s}
        spec:
          generateSelector: true
          parentResource:
            apiVersion: test.metahooks.dev/v1
            resource: things
            labelSelector: {matchLabels: {hooks: %1$s}}
          childResources: [{apiVersion: v1, resource: configmaps}]
          hooks:
            sync: {version: %1$s, webhook: {url: "http://metahooks.metahooks/lister/sync"}}
            customize: {version: %1$s, webhook: {url: "http://metahooks.metahooks/lister/customize"}}
        """
        .formatted(version);
  }

  @BeforeEach
  void setUp() {
    cluster = TestKinds.cluster();
    mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .loadYaml(manifest("v1"))
            .loadYaml(manifest("v2"));
    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: a, labels: {env: prod}}}");
    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: b, labels: {env: prod}}}");
    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: c, labels: {env: dev}}}");
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: cm1, namespace: a, labels: {team: blue}}}");
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: cm2, namespace: b, labels: {team: blue}}}");
    cluster.create(
        "{apiVersion: v1, kind: ConfigMap, metadata: {name: cm3, namespace: a, labels: {team: red}}}");
    cluster.create("{apiVersion: v1, kind: Secret, metadata: {name: token, namespace: b}}");
  }

  private ObjectNode status(String name) {
    return (ObjectNode) cluster.get(TestKinds.API_VERSION, "Thing", "a", name).get("status");
  }

  @Test
  void v1SeesOnlyItsOwnNamespaceByNameAndV2SeesEverythingByNamespaceAndName() {
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: one, namespace: a, labels: {hooks: v1}}}");
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: two, namespace: a, labels: {hooks: v2}}}");

    mc.runUntilStable(10);

    assertThat(status("one").get("configMaps").toString()).isEqualTo("[\"cm1\"]");
    assertThat(status("one").get("namespaces").toString())
        .as("cluster-scoped: dropped in v1")
        .isEqualTo("[]");
    assertThat(status("one").get("children").toString()).isEqualTo("[\"one-list\"]");
    assertThat(status("two").get("configMaps").toString()).isEqualTo("[\"a/cm1\",\"b/cm2\"]");
    assertThat(status("two").get("namespaces").toString()).isEqualTo("[\"a\",\"b\"]");
    assertThat(status("two").get("children").toString()).isEqualTo("[\"a/two-list\"]");
    ObjectNode v1Request = mc.lastCall("lister-v1", "sync").request();
    assertThat(v1Request.at("/related/Namespace.v1").toString())
        .as("the group stays")
        .isEqualTo("{}");
    assertThat(v1Request.at("/children/ConfigMap.v1").has("one-list")).isTrue();
  }

  @Test
  void namesInAnotherNamespaceAreRefusedForV1AndSelectedForV2() {
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: one, namespace: a, labels: {hooks: v1}},
         spec: {byName: true}}""");
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: two, namespace: a, labels: {hooks: v2}},
         spec: {byName: true}}""");

    mc.tolerateSyncErrors().runUntilStable(10);

    assertThat(mc.syncErrors())
        .extracting(SyncError::message)
        .contains("requested related object namespace b differs from parent object namespace a");
    assertThat(cluster.get(TestKinds.API_VERSION, "Thing", "a", "one").has("status")).isFalse();
    assertThat(status("two").get("secrets").toString()).isEqualTo("[\"b/token\"]");
  }

  @Test
  void customizeIsCalledOncePerParentGeneration() {
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: two, namespace: a, labels: {hooks: v2}}}");
    mc.runUntilStable(10);
    assertThat(mc.calls("lister-v2", "customize")).hasSize(1);
    assertThat(mc.calls("lister-v2", "sync")).hasSizeGreaterThan(1);

    cluster.update(
        TestKinds.API_VERSION, "Thing", "a", "two", t -> t.putObject("spec").put("byName", true));
    mc.runUntilStable(10);
    assertThat(mc.calls("lister-v2", "customize")).hasSize(2);
    assertThat(status("two").get("secrets").toString()).isEqualTo("[\"b/token\"]");
  }

  /** The cache keeps an answer 20 minutes (customize/manager.go:101): the first sync after that asks again. */
  @Test
  void aCachedCustomizeAnswerExpiresAfterTwentyMinutes() {
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: two, namespace: a, labels: {hooks: v2}}}");
    mc.runUntilStable(10);
    cluster.advance(java.time.Duration.ofMinutes(20));
    mc.resyncAll().round();
    assertThat(mc.calls("lister-v2", "customize")).as("20 minutes: still cached").hasSize(1);

    cluster.advance(java.time.Duration.ofSeconds(1));
    mc.resyncAll().round();
    assertThat(mc.calls("lister-v2", "customize")).hasSize(2);
  }

  @Test
  void relatedChangesShowInTheNextSync() {
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: two, namespace: a, labels: {hooks: v2}}}");
    mc.runUntilStable(10);

    cluster.update(
        "v1", "ConfigMap", "a", "cm3", cm -> cm.withObject("/metadata/labels").put("team", "blue"));
    mc.runUntilStable(10);

    assertThat(status("two").get("configMaps").toString())
        .isEqualTo("[\"a/cm1\",\"a/cm3\",\"b/cm2\"]");
  }
}
