package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * RollingRecreate with a Ready status check: one Pod at a time, highest ordinal first, paused by unready Pods,
 * as Metacontroller means it ({@link Profile#INTENDED}); and the stall after the first Pod that v4.17.2 has.
 */
class RollingUpdateTest {
  private static LocalHooks hooks;
  private Cluster cluster;
  private Metacontroller mc;

  /** Pods {@code <name>-<i>} running {@code app:<version>}, listed from the highest ordinal down. */
  static CompositeResponse sync(CompositeRequest request) {
    JsonNode spec = request.parent().path("spec");
    List<ObjectNode> pods = new ArrayList<>();
    for (int i = spec.path("replicas").asInt(1) - 1; i >= 0; i--) {
      ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
      pod.putObject("metadata").put("name", request.name() + "-" + i);
      pod.putObject("spec")
          .putArray("containers")
          .addObject()
          .put("name", "app")
          .put("image", "app:" + spec.path("version").asText());
      pods.add(pod);
    }
    ObjectNode status = Json.object().put("pods", request.children().count("v1", "Pod"));
    if (spec.path("ownCondition").asBoolean(false)) {
      status
          .putArray("conditions")
          .addObject()
          .put("type", "Updated")
          .put("status", "Unknown")
          .put("reason", "SetByTheHook");
    }
    return CompositeResponse.of(spec.path("noStatus").asBoolean(false) ? null : status, pods);
  }

  @BeforeAll
  static void startHooks() {
    hooks = LocalHooks.start(Controller.composite("rolling").sync(RollingUpdateTest::sync).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  /** Three Pods of {@code app:v1}, settled, under the given profile. */
  private void start(Profile profile) {
    start(profile, false);
  }

  private void start(Profile profile, boolean etag) {
    cluster = TestKinds.cluster();
    mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .profile(profile)
            .loadYaml(
                """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: rolling-controller}
        spec:
          generateSelector: true
          parentResource:
            apiVersion: test.metahooks.dev/v1
            resource: things
            revisionHistory: {fieldPaths: [spec.version]}
          childResources:
          - apiVersion: v1
            resource: pods
            updateStrategy:
              method: RollingRecreate
              statusChecks: {conditions: [{type: Ready, status: "True"}]}
          hooks: {sync: {webhook: {url: "http://metahooks.metahooks/rolling/sync", etag: {enabled: %s}}}}
        """
                    .formatted(etag));
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: r}, spec: {replicas: 3, version: v1}}");
    mc.runUntilStable(20);
  }

  private String image(int ordinal) {
    return cluster
        .get("v1", "Pod", "default", "r-" + ordinal)
        .at("/spec/containers/0/image")
        .asText();
  }

  private JsonNode updatedCondition() {
    for (JsonNode condition :
        cluster.get(TestKinds.API_VERSION, "Thing", "default", "r").at("/status/conditions")) {
      if (condition.path("type").asText().equals("Updated")) {
        return condition;
      }
    }
    throw new AssertionError("no Updated condition");
  }

  /** SetCondition replaces a present condition in a copy (pkg/dynamic/object/status.go:82-88): the write is lost. */
  @Test
  void onV4172AHooksOwnUpdatedConditionIsNeverReplaced() {
    start(Profile.V4_17_2);
    assertThat(updatedCondition().path("reason").asText()).isEqualTo("OnLatestRevision");

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("ownCondition", true));
    mc.runUntilStable(10);

    assertThat(updatedCondition().path("reason").asText()).isEqualTo("SetByTheHook");
  }

  @Test
  void underIntendedTheUpdatedConditionReplacesTheHooksOwn() {
    start(Profile.INTENDED);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("ownCondition", true));
    mc.runUntilStable(10);

    assertThat(updatedCondition().path("reason").asText()).isEqualTo("OnLatestRevision");
  }

  /** SetCondition sets a field of the nil status map (pkg/dynamic/object/status.go:94): Metacontroller panics. */
  @Test
  void onV4172ARollingAnswerWithoutStatusCrashesMetacontroller() {
    start(Profile.V4_17_2);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("noStatus", true));

    assertThatThrownBy(() -> mc.round())
        .isInstanceOf(MetacontrollerCrash.class)
        .hasMessageContaining(
            "rolling-controller Thing default/r: on a cluster this answer crash-loops "
                + "Metacontroller, every controller with it")
        .hasMessageContaining(
            "assignment to entry in nil map (pkg/dynamic/object/status.go:94 at v4.17.2)");
  }

  @Test
  void underIntendedARollingAnswerWithoutStatusIsASyncError() {
    start(Profile.INTENDED);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("noStatus", true));

    assertThat(mc.round().errors())
        .singleElement()
        .extracting(SyncError::message)
        .asString()
        .contains("no status");
  }

  @Test
  void onV4172TheRolloutStallsOnceOnePodIsOnTheLatestRevision() {
    start(Profile.V4_17_2);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("version", "v2"));
    mc.runUntilStable(40);

    assertThat(List.of(image(0), image(1), image(2))).containsExactly("app:v1", "app:v1", "app:v2");
    JsonNode condition = updatedCondition();
    assertThat(condition.path("reason").asText()).isEqualTo("RolloutWaiting");
    assertThat(condition.path("message").asText()).isEqualTo("missing child Pod r-2");
    assertThat(
            cluster.get("v1", "Pod", "default", "r-2").at("/status/conditions/0/status").asText())
        .as("the Pod it waits for exists and is Ready")
        .isEqualTo("True");
    assertThat(mc.round().changed()).isFalse();
  }

  @Test
  void withETagOnV4172AnOldRevisionGetsTheLatestAnswerSoEveryPodIsRecreatedAtOnce() {
    start(Profile.V4_17_2, true);
    int firstRound = mc.rounds().size() + 1;

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("version", "v2"));
    Round round = mc.round();

    assertThat(round.calls()).extracting(HookCall::status).containsExactlyInAnyOrder(200, 304);
    HookCall oldRevision =
        round.calls().stream()
            .filter(c -> c.parent().contains("(revision "))
            .findFirst()
            .orElseThrow();
    assertThat(oldRevision.request().at("/parent/spec/version").asText()).isEqualTo("v1");
    assertThat(oldRevision.responseJson().at("/children/0/spec/containers/0/image").asText())
        .as("the 304 took the body the latest revision's 200 had just stored")
        .isEqualTo("app:v2");
    assertThat(
            round.writes().stream()
                .filter(w -> w.verb() == Write.Verb.MARK_DELETED && w.object().startsWith("Pod ")))
        .as("all Pods deleted (Terminating) in one sync")
        .hasSize(3);
    assertThat(mc.rounds().size()).isEqualTo(firstRound);
  }

  @Test
  void withETagAsIntendedEachRevisionGetsItsOwnCachedAnswer() {
    start(Profile.INTENDED, true);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("version", "v2"));
    Round round = mc.round();

    HookCall oldRevision =
        round.calls().stream()
            .filter(c -> c.parent().contains("(revision "))
            .findFirst()
            .orElseThrow();
    assertThat(oldRevision.status()).isEqualTo(304);
    assertThat(oldRevision.responseJson().at("/children/0/spec/containers/0/image").asText())
        .isEqualTo("app:v1");
    assertThat(
            round.writes().stream()
                .filter(w -> w.verb() == Write.Verb.DELETE && w.object().startsWith("Pod ")))
        .hasSize(1);
    mc.runUntilStable(40);
    assertThat(List.of(image(0), image(1), image(2))).containsOnly("app:v2");
  }

  @Test
  void aNewRevisionRollsOutOnePodAtATimeInTheReturnedOrder() {
    start(Profile.INTENDED);
    assertThat(updatedCondition().path("reason").asText()).isEqualTo("OnLatestRevision");
    assertThat(cluster.list(RollingUpdate.REVISION_API_VERSION, "ControllerRevision")).hasSize(1);
    int firstRound = mc.rounds().size() + 1;

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("version", "v2"));
    mc.runUntilStable(40);

    assertThat(List.of(image(0), image(1), image(2))).containsOnly("app:v2");
    List<String> deletions = new ArrayList<>();
    for (Round round : mc.rounds().subList(firstRound - 1, mc.rounds().size())) {
      List<String> deleted =
          round.writes().stream()
              .filter(w -> w.verb() == Write.Verb.DELETE && w.object().startsWith("Pod "))
              .map(Write::object)
              .toList();
      assertThat(deleted)
          .as("round %d deletes at most one Pod", round.number())
          .hasSizeLessThanOrEqualTo(1);
      deletions.addAll(deleted);
    }
    assertThat(deletions).containsExactly("Pod default/r-2", "Pod default/r-1", "Pod default/r-0");
    assertThat(updatedCondition().path("status").asText()).isEqualTo("True");
    assertThat(cluster.list(RollingUpdate.REVISION_API_VERSION, "ControllerRevision"))
        .as("the old one is pruned")
        .hasSize(1);
    assertThat(mc.calls("rolling-controller", "sync"))
        .anySatisfy(
            call -> {
              assertThat(call.parent()).contains("(revision ");
              assertThat(call.request().at("/parent/spec/version").asText()).isEqualTo("v1");
            });
  }

  @Test
  void anUnreadyPodPausesTheRollout() {
    start(Profile.INTENDED);
    mc.world()
        .pods(
            pod ->
                pod.at("/spec/containers/0/image").asText().equals("app:v2")
                    ? PodState.RUNNING
                    : PodState.READY);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("version", "v2"));
    mc.runUntilStable(40);

    assertThat(List.of(image(0), image(1), image(2))).containsExactly("app:v1", "app:v1", "app:v2");
    JsonNode condition = updatedCondition();
    assertThat(condition.path("reason").asText()).isEqualTo("RolloutWaiting");
    assertThat(condition.path("message").asText())
        .isEqualTo(
            "child Pod r-2 failed status check: \"Ready\" condition status is \"False\" (want \"True\")");
    assertThat(cluster.list(RollingUpdate.REVISION_API_VERSION, "ControllerRevision")).hasSize(2);
  }

  @Test
  void scalingUpDuringARolloutCreatesNewPodsOnTheLatestRevision() {
    start(Profile.INTENDED);
    mc.world()
        .pods(
            pod ->
                pod.at("/spec/containers/0/image").asText().equals("app:v2")
                    ? PodState.RUNNING
                    : PodState.READY);
    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("version", "v2"));
    mc.runUntilStable(40);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("replicas", 4));
    mc.runUntilStable(40);

    assertThat(List.of(image(0), image(1), image(2), image(3)))
        .containsExactly("app:v1", "app:v1", "app:v2", "app:v2");
  }

  @Test
  void anOrphanControllerRevisionMatchingTheSelectorIsAdopted() {
    start(Profile.V4_17_2);
    ObjectNode revision =
        cluster.list(RollingUpdate.REVISION_API_VERSION, "ControllerRevision").get(0);
    cluster.update(
        RollingUpdate.REVISION_API_VERSION,
        "ControllerRevision",
        "default",
        Meta.name(revision),
        r -> Meta.metadata(r).remove("ownerReferences"));

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "r",
        t -> t.withObject("/spec").put("replicas", 4));
    mc.runUntilStable(20);

    ObjectNode adopted =
        cluster.get(
            RollingUpdate.REVISION_API_VERSION,
            "ControllerRevision",
            "default",
            Meta.name(revision));
    assertThat(Meta.controllerRef(adopted).path("name").asText()).isEqualTo("r");
  }
}
