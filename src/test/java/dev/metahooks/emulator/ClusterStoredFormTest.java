package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the API server stores otherwise than it is sent (GoStructs, SecretStringData, Cluster.createIn), and what
 * that does to a child Metacontroller keeps sending: the scenario names the child and the path that never settles.
 */
class ClusterStoredFormTest {
  private static LocalHooks hooks;

  /** A ResourceQuota whose hard cpu is {@code spec.cpu} of the parent, as written. */
  static CompositeResponse quota(CompositeRequest request) {
    ObjectNode quota = Json.object().put("apiVersion", "v1").put("kind", "ResourceQuota");
    quota.putObject("metadata").put("name", request.name() + "-quota");
    quota
        .putObject("spec")
        .putObject("hard")
        .put("cpu", request.parent().path("spec").path("cpu").asText());
    return CompositeResponse.of(Json.object(), List.of(quota));
  }

  /** A ConfigMap with an empty {@code binaryData}, which the API server does not store. */
  static CompositeResponse emptyMap(CompositeRequest request) {
    ObjectNode child = TestKinds.configMap(request.name() + "-data", "key", "value");
    child.putObject("binaryData");
    return CompositeResponse.of(Json.object(), List.of(child));
  }

  /** A ConfigMap without a namespace, for a cluster-scoped parent. */
  static CompositeResponse unplaced(CompositeRequest request) {
    return CompositeResponse.of(
        Json.object(), List.of(TestKinds.configMap(request.name() + "-data", "k", "v")));
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("quota").sync(ClusterStoredFormTest::quota).build(),
            Controller.composite("emptymap").sync(ClusterStoredFormTest::emptyMap).build(),
            Controller.composite("unplaced").sync(ClusterStoredFormTest::unplaced).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  // ---- quantities

  @Test
  void quantitiesOfBuiltInKindsAreStoredCanonicalAndAsStrings() {
    Cluster cluster = TestKinds.cluster();
    ObjectNode set =
        cluster.create(
            """
        {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db},
         spec: {serviceName: db, selector: {matchLabels: {app: db}},
                template: {metadata: {labels: {app: db}}, spec: {
                  containers: [{name: c, image: pg, resources: {requests: {cpu: "0.5", memory: 1073741824},
                                                                limits: {cpu: "1000m", memory: "1024Mi"}}}],
                  volumes: [{name: scratch, emptyDir: {sizeLimit: "2048Mi"}}]}},
                volumeClaimTemplates: [{metadata: {name: data},
                                        spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1.5Gi}}}}]}}
        """);

    assertThat(set.at("/spec/template/spec/containers/0/resources/requests/cpu").asText())
        .isEqualTo("500m");
    assertThat(set.at("/spec/template/spec/containers/0/resources/requests/memory").isTextual())
        .isTrue();
    assertThat(set.at("/spec/template/spec/containers/0/resources/requests/memory").asText())
        .isEqualTo("1073741824");
    assertThat(set.at("/spec/template/spec/containers/0/resources/limits/cpu").asText())
        .isEqualTo("1");
    assertThat(set.at("/spec/template/spec/containers/0/resources/limits/memory").asText())
        .isEqualTo("1Gi");
    assertThat(set.at("/spec/template/spec/volumes/0/emptyDir/sizeLimit").asText())
        .isEqualTo("2Gi");
    assertThat(set.at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage").asText())
        .isEqualTo("1536Mi");

    ObjectNode claim =
        cluster.create(
            """
        {apiVersion: v1, kind: PersistentVolumeClaim, metadata: {name: c},
         spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1000000000}}}}""");
    assertThat(claim.at("/spec/resources/requests/storage").asText()).isEqualTo("1G");

    ObjectNode quota =
        cluster.create(
            "{apiVersion: v1, kind: ResourceQuota, metadata: {name: q}, spec: {hard: "
                + "{cpu: 0.25, requests.memory: 2048Ki, pods: 10, limits.cpu: 5n}}}");
    assertThat(quota.at("/spec/hard").toString())
        .isEqualTo(
            "{\"cpu\":\"250m\",\"requests.memory\":\"2Mi\",\"pods\":\"10\",\"limits.cpu\":\"1m\"}");

    ObjectNode limits =
        cluster.create(
            "{apiVersion: v1, kind: LimitRange, metadata: {name: l}, spec: {limits: "
                + "[{type: Container, max: {memory: 1Gi}, default: {cpu: '0.1'}}]}}");
    assertThat(limits.at("/spec/limits/0/default/cpu").asText()).isEqualTo("100m");
  }

  @Test
  void aTextThatIsNotAQuantityIsABadRequest() {
    assertThatThrownBy(
            () ->
                TestKinds.cluster()
                    .create(
                        "{apiVersion: v1, kind: ResourceQuota, metadata: {name: q}, spec: {hard: {cpu: half}}}"))
        .isInstanceOf(ApiException.class)
        .satisfies(
            e -> assertThat(((ApiException) e).reason()).isEqualTo(ApiException.Reason.BAD_REQUEST))
        .hasMessageContaining(
            "ResourceQuota in version \"v1\" cannot be handled as a ResourceQuota: quantities must "
                + "match the regular expression");
  }

  @Test
  void aChildThatEchoesANonCanonicalQuantityIsUpdatedOnEverySyncAndTheScenarioNamesThePath() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .loadYaml(TestKinds.composite("quota", "resourcequotas", "InPlace"));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {cpu: '0.5'}}");

    assertThatThrownBy(() -> mc.runUntilStable(10))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("update of ResourceQuota default/t-quota stored unchanged")
        .hasMessageContaining("spec.hard.cpu: \"500m\" -> \"0.5\"")
        .hasMessageContaining(
            "the API server stores these otherwise than sent (sent -> stored): "
                + "[spec.hard.cpu: \"0.5\" -> \"500m\"]");
    assertThat(mc.idleUpdates()).isNotEmpty().allMatch(IdleUpdate::causedByTheAnswer);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "t",
        t -> t.withObject("/spec").put("cpu", "500m"));
    mc.runUntilStable(10);
  }

  // ---- empty maps and lists, unknown fields

  @Test
  void emptyOptionalListsAndMapsAreNotStored() {
    Cluster cluster = TestKinds.cluster();
    ObjectNode configMap =
        cluster.create(
            """
        {apiVersion: v1, kind: ConfigMap, metadata: {name: c, labels: {}, annotations: {}, finalizers: []},
         data: {a: "1"}, binaryData: {}}""");
    assertThat(configMap.has("binaryData")).isFalse();
    assertThat(configMap.at("/metadata").has("labels")).isFalse();
    assertThat(configMap.at("/metadata").has("annotations")).isFalse();
    assertThat(configMap.at("/metadata").has("finalizers")).isFalse();
    assertThat(configMap.at("/data/a").asText()).isEqualTo("1");

    ObjectNode pod =
        cluster.create(
            """
        {apiVersion: v1, kind: Pod, metadata: {name: p},
         spec: {containers: [{name: c, image: nginx, env: [], ports: [], resources: {limits: {}}}],
                nodeSelector: {}, imagePullSecrets: []}}""");
    assertThat(pod.at("/spec/containers/0").has("env")).isFalse();
    assertThat(pod.at("/spec/containers/0").has("ports")).isFalse();
    assertThat(pod.at("/spec/containers/0/resources").toString())
        .as("a struct stays, its empty map goes")
        .isEqualTo("{}");
    assertThat(pod.at("/spec").has("nodeSelector")).isFalse();
    assertThat(pod.at("/spec").has("imagePullSecrets")).isFalse();

    ObjectNode role =
        cluster.create(
            "{apiVersion: rbac.authorization.k8s.io/v1, kind: Role, metadata: {name: r}, "
                + "rules: []}");
    assertThat(role.get("rules")).as("Role.rules has no omitempty").isNotNull();
  }

  @Test
  void unknownFieldsOfBuiltInKindsAreDroppedAndACustomResourceKeepsItsOwn() {
    Cluster cluster = TestKinds.cluster();
    ObjectNode configMap =
        cluster.create(
            """
        {apiVersion: v1, kind: ConfigMap, metadata: {name: c, colour: blue}, data: {a: "1"}, extra: {x: 1}}""");
    assertThat(configMap.has("extra")).isFalse();
    assertThat(configMap.at("/metadata").has("colour")).isFalse();

    ObjectNode deployment =
        cluster.create(
            """
        {apiVersion: apps/v1, kind: Deployment, metadata: {name: d},
         spec: {selector: {matchLabels: {app: a}}, replicaz: 3,
                template: {metadata: {labels: {app: a}},
                           spec: {containers: [{name: c, image: nginx, imagePullPolice: Always,
                                                ports: [{containerPort: 80, portName: web}]}]}}}}""");
    assertThat(deployment.at("/spec").has("replicaz")).isFalse();
    assertThat(deployment.at("/spec/template/spec/containers/0").has("imagePullPolice")).isFalse();
    assertThat(deployment.at("/spec/template/spec/containers/0/ports/0").has("portName")).isFalse();
    assertThat(deployment.at("/spec/template/spec/containers/0/ports/0/containerPort").asInt())
        .isEqualTo(80);

    ObjectNode thing =
        cluster.create(
            "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, "
                + "spec: {anything: {goes: []}}}");
    assertThat(thing.at("/spec/anything/goes").isArray()).isTrue();
  }

  @Test
  void aRecreatedChildWithAnEmptyMapNeverSettlesAndTheFailureNamesIt() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .loadYaml(TestKinds.composite("emptymap", "configmaps", "Recreate"));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {}}");

    assertThatThrownBy(() -> mc.runUntilStable(8))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("did not settle within 8 rounds")
        .hasMessageContaining(
            "emptymap-controller Thing default/t -> ConfigMap default/t-data: binaryData: (absent) "
                + "-> {}")
        .hasMessageContaining("binaryData: {} -> (absent)");
  }

  // ---- Secrets

  @Test
  void stringDataIsFoldedIntoDataAndNotStored() {
    ObjectNode secret =
        TestKinds.cluster()
            .create(
                """
        {apiVersion: v1, kind: Secret, metadata: {name: s}, data: {kept: a2VwdA==, both: b2xk},
         stringData: {both: new, text: "héllo"}}""");

    assertThat(secret.has("stringData")).isFalse();
    assertThat(secret.at("/data/kept").asText()).isEqualTo("a2VwdA==");
    assertThat(decoded(secret, "both")).isEqualTo("new");
    assertThat(decoded(secret, "text")).isEqualTo("héllo");
  }

  private static String decoded(ObjectNode secret, String key) {
    return new String(
        Base64.getDecoder().decode(secret.at("/data/" + key).asText()), StandardCharsets.UTF_8);
  }

  // ---- namespaces

  @Test
  void aNamespacedChildWithoutANamespaceOfAClusterScopedParentIsRefused() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .loadYaml(
                """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: unplaced-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: clusterthings}
          childResources: [{apiVersion: v1, resource: configmaps}]
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/unplaced/sync"}}}
        """)
            .tolerateSyncErrors();
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: ClusterThing, metadata: {name: c}, spec: {}}");
    mc.runUntilStable(5);

    assertThat(cluster.list("v1", "ConfigMap")).isEmpty();
    assertThat(mc.syncErrors()).isNotEmpty();
    assertThat(mc.syncErrors().get(0).message())
        .contains(
            "can't create ConfigMap c-data: the server does not "
                + "allow this method on the requested resource (post configmaps)");
  }

  @Test
  void kubectlStillPutsAnObjectWithoutANamespaceInDefault() {
    Cluster cluster = TestKinds.cluster();
    assertThat(
            Meta.namespace(
                cluster.create("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}}")))
        .isEqualTo("default");
    assertThatThrownBy(() -> cluster.createIn("", TestKinds.configMap("d", "k", "v")))
        .isInstanceOf(ApiException.class)
        .satisfies(
            e ->
                assertThat(((ApiException) e).reason())
                    .isEqualTo(ApiException.Reason.METHOD_NOT_ALLOWED));
    assertThat(
            Meta.namespace(
                cluster.createIn(
                    "",
                    Json.object()
                        .put("apiVersion", "rbac.authorization.k8s.io/v1")
                        .put("kind", "ClusterRole")
                        .set("metadata", Json.object().put("name", "r")))))
        .isEmpty();
  }
}
