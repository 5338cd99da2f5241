package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.TestKinds;
import org.junit.jupiter.api.Test;

/** The fake API server: defaults, generation, scopes, finalizers, garbage collection, the write log. */
class ClusterTest {
  private final Cluster cluster = TestKinds.cluster();

  @Test
  void createSetsSystemFieldsAndDefaultsTheNamespace() {
    ObjectNode created =
        cluster.create(
            """
        {apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t, uid: mine}, spec: {a: 1},
         status: {dropped: true}}""");

    assertThat(created.at("/metadata/namespace").asText()).isEqualTo("default");
    assertThat(created.at("/metadata/uid").asText()).isNotEqualTo("mine").hasSize(36);
    assertThat(created.at("/metadata/generation").asLong()).isEqualTo(1);
    assertThat(created.at("/metadata/resourceVersion").asText()).isEqualTo("1");
    assertThat(created.at("/metadata/creationTimestamp").asText())
        .isEqualTo("2026-01-01T00:00:00Z");
    assertThat(created.has("status")).as("status is a subresource").isFalse();
    assertThatThrownBy(
            () ->
                cluster.create(
                    "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}}"))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("already exists");
  }

  @Test
  void scopesComeFromBuiltInsRegistrationsAndCrds() {
    ObjectNode namespace =
        cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: n, namespace: x}}");
    assertThat(namespace.at("/metadata/namespace").isMissingNode()).isTrue();
    assertThat(
            cluster
                .resources()
                .requireKind("rbac.authorization.k8s.io/v1", "ClusterRole")
                .namespaced())
        .isFalse();
    assertThat(cluster.resources().requireKind("example.com/v1", "HelloWorld").namespaced())
        .as("from manifests/crds")
        .isTrue();
    assertThatThrownBy(
            () ->
                cluster.create(
                    "{apiVersion: other.example/v1, kind: Unknown, metadata: {name: u}}"))
        .isInstanceOf(ApiException.class)
        .hasMessageContaining("unknown kind Unknown");

    cluster.create(
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: widgets.other.example}
        spec:
          group: other.example
          names: {kind: Widget, plural: widgets}
          scope: Cluster
          versions: [{name: v1, served: true, storage: true, subresources: {status: {}}}]
        """);
    assertThat(
            cluster
                .create(
                    "{apiVersion: other.example/v1, kind: Widget, metadata: {name: w, namespace: x}}")
                .at("/metadata/namespace")
                .isMissingNode())
        .isTrue();
  }

  @Test
  void generationCountsSpecChangesOnlyAndNoOpWritesWriteNothing() {
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {a: 1}}");
    int writes = cluster.writes().size();

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "t",
        t -> t.withObject("/metadata").putObject("labels").put("l", "v"));
    cluster.update(TestKinds.API_VERSION, "Thing", "default", "t", t -> {});
    cluster.updateStatus(
        TestKinds.API_VERSION, "Thing", "default", "t", t -> t.putObject("status").put("s", 1));
    ObjectNode thing = cluster.get(TestKinds.API_VERSION, "Thing", "default", "t");
    assertThat(thing.at("/metadata/generation").asLong()).isEqualTo(1);
    assertThat(cluster.writes()).hasSize(writes + 2);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "t",
        t -> {
          t.withObject("/spec").put("a", 2);
          t.putObject("status").put("ignored", true);
        });
    thing = cluster.get(TestKinds.API_VERSION, "Thing", "default", "t");
    assertThat(thing.at("/metadata/generation").asLong()).isEqualTo(2);
    assertThat(thing.at("/status").toString())
        .as("an update keeps the status")
        .isEqualTo("{\"s\":1}");
  }

  @Test
  void aStaleResourceVersionIsAConflict() {
    ObjectNode created =
        cluster.create("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: b}}");
    cluster.update("v1", "ConfigMap", "default", "c", c -> c.withObject("/data").put("a", "c"));
    created.withObject("/data").put("a", "d");
    assertThatThrownBy(() -> cluster.update(created))
        .isInstanceOf(ApiException.class)
        .satisfies(
            e -> assertThat(((ApiException) e).reason()).isEqualTo(ApiException.Reason.CONFLICT));
  }

  @Test
  void finalizersHoldDeletionUntilRemoved() {
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t, finalizers: [a/b]}}");
    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t");

    ObjectNode deleting = cluster.get(TestKinds.API_VERSION, "Thing", "default", "t");
    assertThat(deleting.at("/metadata/deletionTimestamp").asText())
        .isEqualTo("2026-01-01T00:00:00Z");
    assertThat(deleting.at("/metadata/generation").asLong()).isEqualTo(2);
    assertThatThrownBy(
            () ->
                cluster.update(
                    TestKinds.API_VERSION,
                    "Thing",
                    "default",
                    "t",
                    t -> t.withArray("/metadata/finalizers").add("c/d")))
        .hasMessageContaining("no new finalizers can be added");

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "t",
        t -> t.withObject("/metadata").remove("finalizers"));
    assertThat(cluster.exists(TestKinds.API_VERSION, "Thing", "default", "t")).isFalse();
    assertThat(cluster.writes())
        .extracting(Write::verb)
        .endsWith(Write.Verb.MARK_DELETED, Write.Verb.UPDATE, Write.Verb.DELETE);
  }

  @Test
  void theGarbageCollectorDeletesWhatOnlyTheDeletedOwnerOwned() {
    ObjectNode owner =
        cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: owner}}");
    ObjectNode other =
        cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: other}}");
    ObjectNode child = cluster.create(owned("child", owner));
    cluster.create(owned("grandchild", child));
    ObjectNode shared = owned("shared", owner);
    shared
        .withArray("/metadata/ownerReferences")
        .add(Meta.controllerRefTo(other).put("controller", false));
    cluster.create(shared);

    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "owner");

    assertThat(cluster.exists("v1", "ConfigMap", "default", "child")).isFalse();
    assertThat(cluster.exists("v1", "ConfigMap", "default", "grandchild")).isFalse();
    ObjectNode survivor = cluster.get("v1", "ConfigMap", "default", "shared");
    assertThat(survivor.at("/metadata/ownerReferences").size()).isEqualTo(1);
    assertThat(survivor.at("/metadata/ownerReferences/0/name").asText()).isEqualTo("other");
    assertThat(cluster.writes())
        .filteredOn(w -> w.object().equals("ConfigMap default/grandchild"))
        .extracting(Write::actor)
        .contains("garbage-collector");
  }

  @Test
  void deletingANamespaceDeletesWhatIsInIt() {
    cluster.create("{apiVersion: v1, kind: Namespace, metadata: {name: gone}}");
    cluster.create("{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: gone}}");
    cluster.create("{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: kept}}");

    cluster.delete("v1", "Namespace", "gone");

    assertThat(cluster.list("v1", "ConfigMap"))
        .extracting(c -> c.at("/metadata/namespace").asText())
        .containsExactly("kept");
  }

  @Test
  void aCompositeParentWithoutStatusSubresourceIsRefused() {
    cluster
        .resources()
        .register(new ApiResources.Type("other.example", "Plain", "plains", true, false));
    assertThatThrownBy(
            () ->
                new Metacontroller(cluster, "http://localhost:1")
                    .loadYaml(
                        """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: plain}
        spec:
          parentResource: {apiVersion: other.example/v1, resource: plains}
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/plain/sync"}}}
        """))
        .hasMessageContaining("does not have subresource 'Status' enabled");
  }

  @Test
  void generateNameGivesStableNames() {
    ObjectNode a = cluster.create("{apiVersion: v1, kind: Pod, metadata: {generateName: job-}}");
    ObjectNode b = cluster.create("{apiVersion: v1, kind: Pod, metadata: {generateName: job-}}");
    assertThat(a.at("/metadata/name").asText())
        .startsWith("job-")
        .hasSize(9)
        .isNotEqualTo(b.at("/metadata/name").asText());
  }

  @Test
  void getNamesWhatExistsWhenTheObjectIsMissing() {
    cluster.create("{apiVersion: v1, kind: ConfigMap, metadata: {name: there}}");
    assertThatThrownBy(() -> cluster.get("v1", "ConfigMap", "default", "missing"))
        .isInstanceOf(AssertionError.class)
        .hasMessage(
            "no ConfigMap default/missing; the cluster has ConfigMap: [ConfigMap default/there]");
  }

  private static ObjectNode owned(String name, ObjectNode owner) {
    ObjectNode configMap = TestKinds.configMap(name, "k", "v");
    configMap.withObject("/metadata").putArray("ownerReferences").add(Meta.controllerRefTo(owner));
    return configMap;
  }
}
