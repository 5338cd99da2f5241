package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

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
 * Foreground and orphan deletion, and a finalizer without a finalize webhook. A finalize hook that keeps its
 * children (as a deletion protection does) holds the parent, but with {@code --cascade=foreground} Metacontroller
 * stops managing children while the GC finalizer is there (finalizer.go ShouldFinalize) and the garbage collector
 * deletes them anyway; once it removed its finalizer, Metacontroller manages children again and creates what
 * the finalize hook still returns, as new objects.
 */
class ControllerLoopDeletionTest {
  private static LocalHooks hooks;

  /** One ConfigMap child, kept by finalize too, which never reports finalized. */
  static CompositeResponse keeper(CompositeRequest request) {
    CompositeResponse response =
        CompositeResponse.of(
            Json.object(), List.of(TestKinds.configMap(request.name() + "-data", "value", "kept")));
    return request.finalizing() ? response.withFinalized(false) : response;
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.composite("keeper")
                .sync(ControllerLoopDeletionTest::keeper)
                .finalize(ControllerLoopDeletionTest::keeper)
                .build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private static final String KEEPER =
      """
      apiVersion: metacontroller.k8s.io/v1alpha1
      kind: CompositeController
      metadata: {name: keeper-controller}
      spec:
        generateSelector: true
        parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
        childResources: [{apiVersion: v1, resource: configmaps, updateStrategy: {method: InPlace}}]
        hooks:
          sync: {webhook: {url: "http://metahooks.metahooks/keeper/sync"}}
          finalize: %s
      """;

  private Cluster cluster;

  private Metacontroller started(Profile profile, String finalize) {
    cluster = TestKinds.cluster();
    Metacontroller mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .profile(profile)
            .loadYaml(KEEPER.formatted(finalize));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: t}, spec: {}}");
    mc.runUntilStable(10);
    assertThat(cluster.exists("v1", "ConfigMap", "default", "t-data")).isTrue();
    return mc;
  }

  private static final String FINALIZE_WEBHOOK =
      "{webhook: {url: \"http://metahooks.metahooks/keeper/finalize\"}}";

  @Test
  void aKeepingFinalizeHookHoldsTheParentAndItsChildrenOnABackgroundDelete() {
    Metacontroller mc = started(Profile.V4_17_2, FINALIZE_WEBHOOK);

    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t");
    mc.runUntilStable(10);

    assertThat(
            cluster
                .get(TestKinds.API_VERSION, "Thing", "default", "t")
                .at("/metadata/deletionTimestamp")
                .asText())
        .isNotEmpty();
    assertThat(cluster.exists("v1", "ConfigMap", "default", "t-data")).isTrue();
  }

  @Test
  void
      foregroundDeletionCollectsTheChildrenAndMetacontrollerCreatesThemAgainOnceTheCollectorIsDone() {
    Metacontroller mc = started(Profile.V4_17_2, FINALIZE_WEBHOOK);
    String firstUid = Meta.uid(cluster.get("v1", "ConfigMap", "default", "t-data"));
    long start = cluster.lastSequence();

    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t", Cluster.Propagation.FOREGROUND);
    mc.runUntilStable(10);

    List<String> childWrites =
        cluster.writesAfter(start).stream()
            .filter(w -> w.object().equals("ConfigMap default/t-data"))
            .map(w -> w.actor() + " " + w.verb())
            .toList();
    assertThat(childWrites)
        .containsExactly("garbage-collector DELETE", "metacontroller/keeper-controller CREATE");
    assertThat(Meta.uid(cluster.get("v1", "ConfigMap", "default", "t-data")))
        .as("a new object")
        .isNotEqualTo(firstUid);
    assertThat(mc.lastCall("keeper-controller", "finalize").request().at("/finalizing").asBoolean())
        .isTrue();
    assertThat(Meta.finalizers(cluster.get(TestKinds.API_VERSION, "Thing", "default", "t")))
        .containsExactly("metacontroller.io/compositecontroller-keeper-controller");
  }

  @Test
  void orphanDeletionLeavesTheChildrenWithoutOwner() {
    Metacontroller mc = started(Profile.V4_17_2, FINALIZE_WEBHOOK);

    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t", Cluster.Propagation.ORPHAN);
    mc.runUntilStable(10);

    assertThat(
            cluster
                .get("v1", "ConfigMap", "default", "t-data")
                .at("/metadata/ownerReferences")
                .isMissingNode())
        .isTrue();
    assertThat(Meta.finalizers(cluster.get(TestKinds.API_VERSION, "Thing", "default", "t")))
        .doesNotContain("orphan");
  }

  @Test
  void anEmptyFinalizeHookAddsAFinalizerOnlyASyncAnswerCouldRemoveOnV4172() {
    Metacontroller faithful = started(Profile.V4_17_2, "{}");
    assertThat(Meta.finalizers(cluster.get(TestKinds.API_VERSION, "Thing", "default", "t")))
        .containsExactly("metacontroller.io/compositecontroller-keeper-controller");
    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t");
    faithful.runUntilStable(10);
    assertThat(cluster.exists(TestKinds.API_VERSION, "Thing", "default", "t"))
        .as("stuck deleting")
        .isTrue();
    assertThat(faithful.calls("keeper-controller", "finalize")).isEmpty();

    Metacontroller intended = started(Profile.INTENDED, "{}");
    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "t");
    intended.runUntilStable(10);
    assertThat(cluster.exists(TestKinds.API_VERSION, "Thing", "default", "t")).isFalse();
  }
}
