package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The CompositeController loop of the emulator, driven through small controllers defined here. */
class CompositeLoopTest {
  private static LocalHooks hooks;
  private Cluster cluster;

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("finalizing")
                .sync(CompositeLoopTest::finalizingSync)
                .finalize(CompositeLoopTest::finalizingFinalize)
                .build(),
            Controller.composite("strategies").sync(CompositeLoopTest::strategies).build(),
            Controller.composite("hotloop").sync(CompositeLoopTest::hotLoop).build(),
            Controller.composite("failing").sync(CompositeLoopTest::failing).build(),
            Controller.composite("selecting").sync(CompositeLoopTest::selecting).build(),
            Controller.composite("clusterparent").sync(CompositeLoopTest::clusterParent).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  @BeforeEach
  void newCluster() {
    cluster = TestKinds.cluster();
  }

  private Metacontroller metacontroller(String manifest) {
    return new Metacontroller(cluster, hooks.baseUrl()).loadYaml(manifest);
  }

  // ---- finalize

  static CompositeResponse finalizingSync(CompositeRequest request) {
    return CompositeResponse.of(
        Json.object().put("configMaps", request.children().count("v1", "ConfigMap")),
        List.of(
            TestKinds.configMap(
                request.name() + "-data", "value", TestKinds.spec(request.parent(), "value"))));
  }

  static CompositeResponse finalizingFinalize(CompositeRequest request) {
    int left = request.children().count("v1", "ConfigMap");
    return CompositeResponse.of(Json.object().put("configMaps", left), List.of())
        .withFinalized(left == 0);
  }

  private static final String FINALIZING =
      """
      apiVersion: metacontroller.k8s.io/v1alpha1
      kind: CompositeController
      metadata: {name: finalizing-controller}
      spec:
        generateSelector: true
        parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
        childResources: [{apiVersion: v1, resource: configmaps}]
        hooks:
          sync: {webhook: {url: "http://metahooks.metahooks/finalizing/sync"}}
          finalize: {webhook: {url: "http://metahooks.metahooks/finalizing/finalize"}}
      """;

  @Test
  void finalizeRunsAfterDeleteAndTheParentGoesOnlyWhenFinalized() {
    Metacontroller mc = metacontroller(FINALIZING);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {value: a}}");
    mc.runUntilStable(10);
    assertThat(
            cluster
                .get(TestKinds.API_VERSION, "Thing", "default", "t")
                .at("/metadata/finalizers")
                .toString())
        .isEqualTo("[\"metacontroller.io/compositecontroller-finalizing-controller\"]");
    assertThat(cluster.exists("v1", "ConfigMap", "default", "t-data")).isTrue();
    assertThat(mc.calls("finalizing-controller", "finalize")).isEmpty();

    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t");
    ObjectNode deleting = cluster.get(TestKinds.API_VERSION, "Thing", "default", "t");
    assertThat(deleting.at("/metadata/deletionTimestamp").isTextual()).isTrue();

    mc.round(); // finalize: the ConfigMap is deleted, but it was still observed, so not finalized
    // yet
    assertThat(
            mc.lastCall("finalizing-controller", "finalize")
                .request()
                .get("finalizing")
                .asBoolean())
        .isTrue();
    assertThat(cluster.exists("v1", "ConfigMap", "default", "t-data")).isFalse();
    assertThat(cluster.exists(TestKinds.API_VERSION, "Thing", "default", "t")).isTrue();

    mc.round(); // finalize again: nothing observed, finalized, finalizer removed, the Thing
    // disappears
    assertThat(
            mc.lastCall("finalizing-controller", "finalize")
                .responseJson()
                .get("finalized")
                .asBoolean())
        .isTrue();
    assertThat(cluster.exists(TestKinds.API_VERSION, "Thing", "default", "t")).isFalse();
    mc.runUntilStable(5);
    assertThat(mc.calls("finalizing-controller", "finalize")).hasSize(2);
  }

  @Test
  void anotherFinalizerKeepsTheParentAndFinalizeIsCalledAgain() {
    Metacontroller mc = metacontroller(FINALIZING);
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing,
         metadata: {name: t, finalizers: [example.com/keep]}, spec: {value: a}}""");
    mc.runUntilStable(10);
    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t");
    mc.runUntilStable(10);

    ObjectNode thing = cluster.get(TestKinds.API_VERSION, "Thing", "default", "t");
    assertThat(thing.at("/metadata/finalizers").toString()).isEqualTo("[\"example.com/keep\"]");
    assertThat(mc.calls("finalizing-controller", "finalize")).hasSizeGreaterThanOrEqualTo(3);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "t",
        t -> t.withObject("/metadata").remove("finalizers"));
    assertThat(cluster.exists(TestKinds.API_VERSION, "Thing", "default", "t")).isFalse();
  }

  // ---- update strategies

  static CompositeResponse strategies(CompositeRequest request) {
    String value = TestKinds.spec(request.parent(), "value");
    ObjectNode configMap = TestKinds.configMap(request.name() + "-ondelete", "value", value);
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret.putObject("metadata").put("name", request.name() + "-recreate");
    secret
        .putObject("data")
        .put("value", Base64.getEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8)));
    ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
    ObjectNode metadata = service.putObject("metadata").put("name", request.name() + "-inplace");
    metadata.putObject("annotations").put("value", value);
    if (value.equals("v1")) {
      metadata.putObject("labels").put("old", "yes");
    }
    ObjectNode spec = service.putObject("spec");
    spec.putObject("selector").put("app", request.name());
    spec.putArray("ports").addObject().put("name", "http").put("port", 80).put("targetPort", 8080);
    return CompositeResponse.of(
            Json.object().put("value", value), List.of(configMap, secret, service))
        .withResyncAfterSeconds(30);
  }

  private static final String STRATEGIES =
      """
      apiVersion: metacontroller.k8s.io/v1alpha1
      kind: CompositeController
      metadata: {name: strategies-controller}
      spec:
        generateSelector: true
        parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
        childResources:
        - {apiVersion: v1, resource: configmaps}
        - {apiVersion: v1, resource: secrets, updateStrategy: {method: Recreate}}
        - {apiVersion: v1, resource: services, updateStrategy: {method: InPlace}}
        hooks:
          sync: {webhook: {url: "http://metahooks.metahooks/strategies/sync"}}
      """;

  @Test
  void onDeleteKeepsRecreateReplacesInPlaceMerges() {
    Metacontroller mc = metacontroller(STRATEGIES);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: s}, spec: {value: v1}}");
    mc.runUntilStable(10);
    String configMapUid = uid("ConfigMap", "s-ondelete");
    String secretUid = uid("Secret", "s-recreate");
    String serviceUid = uid("Service", "s-inplace");
    // The API server and users add fields Metacontroller did not set: an apply must keep them.
    cluster.update(
        "v1",
        "Service",
        "default",
        "s-inplace",
        s -> s.withObject("/spec").put("publishNotReadyAddresses", true));

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "s",
        t -> t.withObject("/spec").put("value", "v2"));
    mc.runUntilStable(10);

    ObjectNode configMap = cluster.get("v1", "ConfigMap", "default", "s-ondelete");
    assertThat(configMap.at("/data/value").asText()).isEqualTo("v1");
    assertThat(uid("ConfigMap", "s-ondelete")).isEqualTo(configMapUid);

    ObjectNode secret = cluster.get("v1", "Secret", "default", "s-recreate");
    assertThat(secret.at("/data/value").asText()).isEqualTo("djI=");
    assertThat(uid("Secret", "s-recreate")).isNotEqualTo(secretUid);

    ObjectNode service = cluster.get("v1", "Service", "default", "s-inplace");
    assertThat(uid("Service", "s-inplace")).isEqualTo(serviceUid);
    assertThat(service.at("/metadata/annotations/value").asText()).isEqualTo("v2");
    assertThat(service.at("/metadata/labels/old").isMissingNode())
        .as("removed since last applied")
        .isTrue();
    assertThat(service.at("/metadata/labels/controller-uid").isTextual()).isTrue();
    assertThat(service.at("/spec/publishNotReadyAddresses").asBoolean())
        .as("kept: not ours")
        .isTrue();
    assertThat(mc.resyncAfterSeconds()).containsEntry("Thing default/s", 30.0);

    // OnDelete applies the change once someone else deletes the child.
    cluster.delete("v1", "ConfigMap", "default", "s-ondelete");
    mc.runUntilStable(10);
    assertThat(cluster.get("v1", "ConfigMap", "default", "s-ondelete").at("/data/value").asText())
        .isEqualTo("v2");
  }

  @Test
  void childrenLeftOutAreDeletedAndChildrenInTheWayAreLeftAlone() {
    Metacontroller mc = metacontroller(STRATEGIES);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: s}, spec: {value: v1}}");
    String thingUid =
        cluster.get(TestKinds.API_VERSION, "Thing", "default", "s").at("/metadata/uid").asText();
    // An owned ConfigMap the hook does not return: deleted. An unowned one with our labels:
    // adopted, then deleted.
    ObjectNode stale = TestKinds.configMap("stale", "k", "v");
    stale.withObject("/metadata").putObject("labels").put("controller-uid", thingUid);
    cluster.create(stale);
    ObjectNode foreign = TestKinds.configMap("foreign", "k", "v");
    cluster.create(foreign);

    mc.runUntilStable(10);

    assertThat(cluster.exists("v1", "ConfigMap", "default", "stale")).isFalse();
    assertThat(cluster.exists("v1", "ConfigMap", "default", "foreign")).isTrue();
    assertThat(cluster.writes())
        .anySatisfy(
            w -> {
              assertThat(w.object()).isEqualTo("ConfigMap default/stale");
              assertThat(w.verb()).isEqualTo(Write.Verb.UPDATE);
              assertThat(w.after().at("/metadata/ownerReferences/0/uid").asText())
                  .isEqualTo(thingUid);
            });
  }

  private String uid(String kind, String name) {
    return cluster.get("v1", kind, "default", name).at("/metadata/uid").asText();
  }

  // ---- hot loops and failures

  static CompositeResponse hotLoop(CompositeRequest request) {
    long counter = request.parent().path("status").path("counter").asLong(0);
    return CompositeResponse.of(Json.object().put("counter", counter + 1), List.of());
  }

  @Test
  void aStatusThatChangesOnEveryCallIsReportedAsAHotLoop() {
    Metacontroller mc =
        metacontroller(
            """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: hotloop-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/hotloop/sync"}}}
        """);
    cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: h}}");

    assertThatThrownBy(() -> mc.runUntilStable(6))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("did not settle within 6 rounds")
        .hasMessageContaining(
            "metacontroller/hotloop-controller UPDATE_STATUS Thing default/h [status.counter: 5 -> 6]");
  }

  static CompositeResponse failing(CompositeRequest request) {
    if (request.parent().path("spec").path("fail").asBoolean(false)) {
      throw new InvalidRequestException("parent.spec.fail", "asked to fail");
    }
    if (request.parent().path("spec").path("crash").asBoolean(false)) {
      throw new IllegalStateException("a fault inside the controller");
    }
    return CompositeResponse.of(
        Json.object().put("ok", true),
        List.of(TestKinds.configMap(request.name() + "-out", "k", "v")));
  }

  private static final String FAILING =
      """
      apiVersion: metacontroller.k8s.io/v1alpha1
      kind: CompositeController
      metadata: {name: failing-controller}
      spec:
        generateSelector: true
        parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
        childResources: [{apiVersion: v1, resource: configmaps}]
        hooks: {sync: {webhook: {url: "http://metahooks.metahooks/failing/sync"}}}
      """;

  @Test
  void anAnswerOtherThan200AppliesNothing() {
    Metacontroller mc = metacontroller(FAILING);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: f}, spec: {fail: true}}");
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: g}, spec: {crash: true}}");

    Round round = mc.round();

    assertThat(round.writes()).isEmpty();
    assertThat(round.errors())
        .extracting(SyncError::message)
        .containsExactly(
            "sync hook failed (version=v1): unsupported status code: 422 body: "
                + mc.calls("failing-controller", "sync").get(0).response(),
            "sync hook failed (version=v1): unsupported status code: 500 body: "
                + mc.calls("failing-controller", "sync").get(1).response());
    assertThat(cluster.list("v1", "ConfigMap")).isEmpty();
    assertThat(cluster.get(TestKinds.API_VERSION, "Thing", "default", "f").has("status")).isFalse();
    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "g"); // (each 500 logs a stack trace)
    assertThatThrownBy(() -> mc.runUntilStable(3))
        .hasMessageContaining("syncs keep failing")
        .hasMessageContaining("Thing default/f");

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "f",
        t -> t.withObject("/spec").put("fail", false));
    mc.tolerateSyncErrors().runUntilStable(5);
    assertThat(cluster.exists("v1", "ConfigMap", "default", "f-out")).isTrue();
  }

  @Test
  void anUnreachableHookIsASyncError() {
    Metacontroller mc = new Metacontroller(cluster, "http://localhost:1").loadYaml(FAILING);
    cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: f}}");
    Round round = mc.round();
    assertThat(round.errors())
        .singleElement()
        .extracting(SyncError::message)
        .asString()
        .contains("http error");
    assertThat(round.writes()).isEmpty();
  }

  // ---- selectors

  static CompositeResponse selecting(CompositeRequest request) {
    JsonNode spec = request.parent().path("spec");
    ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
    ObjectNode metadata = pod.putObject("metadata").put("name", request.name() + "-pod");
    metadata.set(
        "labels",
        spec.path("wrongLabels").asBoolean(false)
            ? Json.object().put("app", "other")
            : spec.path("selector").path("matchLabels").deepCopy());
    pod.putObject("spec")
        .putArray("containers")
        .addObject()
        .put("name", "main")
        .put("image", "busybox");
    return CompositeResponse.of(Json.object(), List.of(pod));
  }

  private static final String SELECTING =
      """
      apiVersion: metacontroller.k8s.io/v1alpha1
      kind: CompositeController
      metadata: {name: selecting-controller}
      spec:
        parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
        childResources: [{apiVersion: v1, resource: pods}]
        hooks: {sync: {webhook: {url: "http://metahooks.metahooks/selecting/sync"}}}
      """;

  @Test
  void childrenAreClaimedBySelectorAndReleasedWhenTheyStopMatching() {
    Metacontroller mc = metacontroller(SELECTING);
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: p},
         spec: {selector: {matchLabels: {app: web}}}}""");
    mc.runUntilStable(10);
    assertThat(
            cluster
                .get("v1", "Pod", "default", "p-pod")
                .at("/metadata/ownerReferences/0/name")
                .asText())
        .isEqualTo("p");

    // A user relabels the Pod: it no longer matches, so it is released (and a new one is created).
    cluster.update(
        "v1",
        "Pod",
        "default",
        "p-pod",
        pod -> pod.withObject("/metadata/labels").put("app", "moved"));
    mc.round();
    ObjectNode released =
        cluster.writes().stream()
            .filter(
                w ->
                    w.object().equals("Pod default/p-pod")
                        && w.verb() == Write.Verb.UPDATE
                        && w.actor().equals("metacontroller/selecting-controller"))
            .reduce((a, b) -> b)
            .orElseThrow()
            .after();
    assertThat(released.at("/metadata/ownerReferences").isMissingNode()).isTrue();
  }

  @Test
  void selectorProblemsAreSyncErrors() {
    Metacontroller mc = metacontroller(SELECTING);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: none}, spec: {}}");
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: wrong},
         spec: {selector: {matchLabels: {app: web}}, wrongLabels: true}}""");

    Round round = mc.round();

    assertThat(round.errors())
        .extracting(SyncError::message)
        .containsExactly(
            ".spec.selector must have either matchLabels, matchExpressions, or both",
            "labels on desired child Pod default/wrong-pod don't match parent selector");
    assertThat(cluster.list("v1", "Pod")).isEmpty();
  }

  // ---- cluster-scoped parents

  static CompositeResponse clusterParent(CompositeRequest request) {
    List<ObjectNode> children = new ArrayList<>();
    for (JsonNode namespace : request.parent().path("spec").path("namespaces")) {
      ObjectNode configMap = TestKinds.configMap(request.name(), "from", request.name());
      configMap.withObject("/metadata").put("namespace", namespace.asText());
      children.add(configMap);
    }
    ArrayNode keys = Json.object().putArray("keys");
    request.children().keys("v1", "ConfigMap").forEach(keys::add);
    ObjectNode status = Json.object();
    status.set("keys", keys);
    return CompositeResponse.of(status, children);
  }

  @Test
  void aClusterScopedParentSeesChildrenOfEveryNamespaceKeyedByNamespaceAndName() {
    Metacontroller mc =
        metacontroller(
            """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: clusterparent-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: clusterthings}
          childResources: [{apiVersion: v1, resource: configmaps}]
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/clusterparent/sync"}}}
        """);
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: ClusterThing, metadata: {name: c, namespace: ignored},
         spec: {namespaces: [alpha, beta]}}""");
    mc.runUntilStable(10);

    ObjectNode parent = cluster.get(TestKinds.API_VERSION, "ClusterThing", "c");
    assertThat(parent.at("/metadata/namespace").isMissingNode()).isTrue();
    assertThat(parent.at("/status/keys").toString()).isEqualTo("[\"alpha/c\",\"beta/c\"]");
    assertThat(
            cluster
                .get("v1", "ConfigMap", "beta", "c")
                .at("/metadata/ownerReferences/0/kind")
                .asText())
        .isEqualTo("ClusterThing");
  }
}
