package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Explicit nulls: the API server stores none of them (Go structs for built-in kinds, Kubernetes'
 * schema/defaulting/prunenulls.go for custom resources), so Metacontroller, whose three-way merge keeps the
 * desired null (pkg/dynamic/apply/apply.go:107-110) and compares with reflect.DeepEqual
 * (pkg/controller/common/manage_children.go:564), finds a difference on every sync.
 */
class NullsTest {
  private static LocalHooks hooks;

  /** A ConfigMap child whose {@code immutable} field is an explicit null. */
  static CompositeResponse nulls(CompositeRequest request) {
    ObjectNode child = TestKinds.configMap(request.name() + "-data", "key", "value");
    child.putNull("immutable");
    return CompositeResponse.of(Json.object(), List.of(child));
  }

  @BeforeAll
  static void startHooks() {
    hooks = LocalHooks.start(Controller.composite("nulls").sync(NullsTest::nulls).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private static Metacontroller metacontroller(Cluster cluster, String method) {
    return new Metacontroller(cluster, hooks.baseUrl())
        .loadYaml(TestKinds.composite("nulls", "configmaps", method));
  }

  @Test
  void aBuiltInKindStoresNoNullAndANullLabelValueAsEmpty() {
    ObjectNode pod =
        TestKinds.cluster()
            .create(
                """
        {apiVersion: v1, kind: Pod, metadata: {name: p, labels: {tier: null}, ownerReferences: null},
         spec: {nodeName: null, containers: [{name: c, image: nginx, args: [null, x], env: null}]}}
        """);

    assertThat(pod.at("/metadata/labels/tier").isTextual()).isTrue();
    assertThat(pod.at("/metadata/labels/tier").asText()).isEmpty();
    assertThat(pod.at("/metadata").has("ownerReferences")).isFalse();
    assertThat(pod.at("/spec").has("nodeName")).isFalse();
    assertThat(pod.at("/spec/containers/0").has("env")).isFalse();
    assertThat(pod.at("/spec/containers/0/args/0").asText())
        .as("a null item of a []string")
        .isEmpty();
    assertThat(Nulls.paths(pod)).isEmpty();
  }

  @Test
  void aCustomResourceLosesItsNonNullableNullsAndKeepsTheNullableOnesAndTheUndescribed() {
    Cluster cluster = TestKinds.cluster();
    cluster.create(
        """
        apiVersion: apiextensions.k8s.io/v1
        kind: CustomResourceDefinition
        metadata: {name: widgets.test.metahooks.dev}
        spec:
          group: test.metahooks.dev
          scope: Namespaced
          names: {kind: Widget, plural: widgets}
          versions:
          - name: v1
            served: true
            storage: true
            subresources: {status: {}}
            schema:
              openAPIV3Schema:
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      size: {type: integer}
                      note: {type: string, nullable: true}
                      mode: {type: string, default: fast}
                      free: {type: object, x-kubernetes-preserve-unknown-fields: true}
        """);
    ObjectNode widget =
        cluster.create(
            """
        {apiVersion: test.metahooks.dev/v1, kind: Widget, metadata: {name: w, annotations: {a: null}},
         spec: {size: null, note: null, mode: null, free: {anything: null}}}
        """);

    assertThat(widget.at("/spec").has("size")).as("not nullable, no default: pruned").isFalse();
    assertThat(widget.at("/spec/note").isNull()).as("nullable: kept").isTrue();
    assertThat(widget.at("/spec/mode").isNull()).as("has a default: left to defaulting").isTrue();
    assertThat(widget.at("/spec/free/anything").isNull())
        .as("no schema describes it: kept")
        .isTrue();
    assertThat(widget.at("/metadata/annotations/a").asText())
        .as("metadata is ObjectMeta")
        .isEmpty();
  }

  @Test
  void aRecreateChildWithANullIsRecreatedOnEverySyncAndTheFailureNamesTheNull() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc = metacontroller(cluster, "Recreate");
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");

    assertThatThrownBy(() -> mc.runUntilStable(8))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("did not settle")
        .hasMessageContaining("DELETE ConfigMap default/a-data")
        .hasMessageContaining("nulls-controller ConfigMap a-data: [immutable]");
  }

  @Test
  void anInPlaceChildWithANullIsUpdatedOnEverySyncAndTheSettleCheckNamesTheNull() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc = metacontroller(cluster, "InPlace");
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");

    assertThatThrownBy(() -> mc.runUntilStable(8))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("sends these updates on every sync")
        .hasMessageContaining(
            "update of ConfigMap default/a-data stored unchanged [immutable: (absent) -> null]");
    mc.resyncAll().round();
    mc.resyncAll().round();
    assertThat(mc.idleUpdates())
        .as("one idle update per sync after the first")
        .hasSizeGreaterThanOrEqualTo(2);
    assertThat(cluster.get("v1", "ConfigMap", "default", "a-data").has("immutable")).isFalse();
    assertThatThrownBy(() -> Emitted.assertNoNulls(mc, "nulls-controller"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("ConfigMap a-data: [immutable]");
  }
}
