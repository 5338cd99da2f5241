package dev.metahooks.controllers.catset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.PodPolicy;
import dev.metahooks.emulator.PodState;
import dev.metahooks.emulator.Profile;
import dev.metahooks.emulator.Round;
import dev.metahooks.emulator.Write;
import dev.metahooks.testsupport.Project;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * catset end to end. Upstream's test.sh waits for 3 ready replicas, scales to 4 and to 2, then deletes the
 * CatSet behind a test finalizer and waits for {@code status.replicas == 0} and Metacontroller's finalizer
 * gone. Here the order of every Pod creation and deletion is checked in the log of writes too.
 */
class CatSetScenarioTest {
  private static final String API = "ctl.enisoc.com/v1";
  private static final String CONTROLLER = "catset-controller";
  private static final String ACTOR = "metacontroller/" + CONTROLLER;
  private static final String NAME = "nginx-backend";
  private static final String OUR_FINALIZER = "metacontroller.io/compositecontroller-" + CONTROLLER;
  private static final String TEST_FINALIZER = "metacontroller.io/catset-test";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/catset.yaml");
    // Pods are Pending for a step before they are Ready, so "wait for the lower ordinals" is a real
    // wait.
    mc.world().pods(PodPolicy.pendingFor(1, PodPolicy.ready()));
    cluster.createFile("manifests/examples/catset.yaml");
  }

  @Test
  void scalesUpOnePodAtATimeEachAfterTheLowerOrdinalsAreReady() {
    long start = cluster.lastSequence();

    runUntilStable();

    assertThat(podNames()).containsExactly("nginx-backend-0", "nginx-backend-1", "nginx-backend-2");
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(3);
    assertThat(catset().at("/status/replicas").asInt()).isEqualTo(3);
    assertThat(podWrites(start, Write.Verb.CREATE)).containsExactly(0, 1, 2);
    assertEachCreationWaitedForLowerOrdinals(start);
    assertAtMostOnePodChangePerRound();
    ObjectNode pod = pod(1);
    assertThat(pod.at("/spec/hostname").asText()).isEqualTo("nginx-backend-1");
    assertThat(pod.at("/spec/subdomain").asText()).isEqualTo("nginx-backend");
    assertThat(pod.at("/spec/volumes/0/persistentVolumeClaim/claimName").asText())
        .isEqualTo("www-nginx-backend-1");
    assertThat(claimNames())
        .containsExactly("www-nginx-backend-0", "www-nginx-backend-1", "www-nginx-backend-2");
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void aPodThatNeverGetsReadyHoldsBackTheHigherOrdinals() {
    mc.world()
        .pods(
            pod ->
                PodPolicy.name(pod).equals("nginx-backend-1") ? PodState.RUNNING : PodState.READY);

    runUntilStable();

    assertThat(podNames()).containsExactly("nginx-backend-0", "nginx-backend-1");
    assertThat(catset().at("/status/replicas").asInt()).isEqualTo(2);
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(1);

    mc.world().pods(PodPolicy.ready());
    runUntilStable();

    assertThat(podNames()).hasSize(3);
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(3);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void scalingDownRemovesTheHighestOrdinalsFirstAndKeepsTheirClaims() {
    runUntilStable();
    Map<String, String> claimUids = claimUids();
    long start = cluster.lastSequence();

    setReplicas(1);
    runUntilStable();

    assertThat(podNames()).containsExactly("nginx-backend-0");
    assertThat(podWrites(start, Write.Verb.DELETE)).containsExactly(2, 1);
    assertAtMostOnePodChangePerRound();
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(1);
    assertThat(claimUids()).isEqualTo(claimUids);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void scalingBackUpReusesTheRetainedClaims() {
    runUntilStable();
    setReplicas(1);
    runUntilStable();
    Map<String, String> retained = claimUids();
    long start = cluster.lastSequence();

    setReplicas(4);
    runUntilStable();

    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(4);
    assertThat(podNames()).hasSize(4);
    assertThat(podWrites(start, Write.Verb.CREATE)).containsExactly(1, 2, 3);
    assertEachCreationWaitedForLowerOrdinals(start);
    Map<String, String> claims = claimUids();
    assertThat(claims).containsAllEntriesOf(retained).containsKey("www-nginx-backend-3").hasSize(4);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void upstreamSequenceThreeFourTwoThenDeleteBehindATestFinalizer() {
    runUntilStable();
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(3);
    setReplicas(4);
    runUntilStable();
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(4);
    setReplicas(2);
    runUntilStable();
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(2);
    cluster.update(
        API,
        "CatSet",
        "default",
        NAME,
        cs -> cs.withArray("/metadata/finalizers").add(TEST_FINALIZER));
    long start = cluster.lastSequence();

    cluster.delete(API, "CatSet", "default", NAME);
    runRoundsCheckingFinalizerHeldWhilePodsExist();

    assertThat(podWrites(start, Write.Verb.DELETE)).containsExactly(1, 0);
    ObjectNode catset = catset();
    assertThat(catset.at("/status/replicas").asInt()).isZero();
    assertThat(finalizers(catset)).containsExactly(TEST_FINALIZER);
    assertThat(claimNames()).hasSize(4); // claims go with the CatSet, not with the Pods
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);

    cluster.update(
        API,
        "CatSet",
        "default",
        NAME,
        cs -> ((ObjectNode) cs.get("metadata")).putArray("finalizers"));
    mc.runUntilStable(3);
    assertThat(cluster.find(API, "CatSet", "default", NAME)).isEmpty();
    assertThat(cluster.list("v1", "PersistentVolumeClaim")).isEmpty();
  }

  @Test
  void deletingWithoutAnotherFinalizerRemovesPodsHighestFirstThenTheCatSet() {
    runUntilStable();
    long start = cluster.lastSequence();

    cluster.delete(API, "CatSet", "default", NAME);
    runRoundsCheckingFinalizerHeldWhilePodsExist();

    assertThat(podWrites(start, Write.Verb.DELETE)).containsExactly(2, 1, 0);
    assertThat(cluster.find(API, "CatSet", "default", NAME)).isEmpty();
    assertThat(cluster.list("v1", "PersistentVolumeClaim")).isEmpty();
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  @Test
  void aTemplateChangeRecreatesPodsOneAtATimeHighestOrdinalFirst() {
    runUntilStable();
    Map<String, String> oldPodUids = podUids();
    long start = cluster.lastSequence();

    changeImage("nginx:1.28");
    runUntilStable();

    assertThat(podWrites(start, Write.Verb.DELETE)).containsExactly(2, 1, 0);
    assertThat(podWrites(start, Write.Verb.CREATE)).containsExactly(2, 1, 0);
    assertEachDeletionWaitedForTheLastRecreatedPod(start);
    assertAtMostOnePodChangePerRound();
    for (int ordinal = 0; ordinal < 3; ordinal++) {
      assertThat(pod(ordinal).at("/spec/containers/0/image").asText()).isEqualTo("nginx:1.28");
    }
    assertThat(podUids().values()).doesNotContainAnyElementsOf(oldPodUids.values());
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(3);
    assertThat(cluster.list("metacontroller.k8s.io/v1alpha1", "ControllerRevision"))
        .as("the hook rolls; Metacontroller keeps no revisions")
        .isEmpty();
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void aRollWaitsForTheRecreatedPodAndHoldsWhileItIsNotReady() {
    runUntilStable();
    mc.world()
        .pods(
            pod ->
                pod.at("/spec/containers/0/image").asText().equals("nginx:1.28")
                    ? PodState.RUNNING
                    : PodState.READY);

    changeImage("nginx:1.28");
    runUntilStable();

    assertThat(List.of(image(0), image(1), image(2)))
        .containsExactly("nginx:1.27", "nginx:1.27", "nginx:1.28");
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(2);
  }

  @Test
  void upstreamsRollingRecreateManifestStallsAfterTheFirstPodOnMetacontroller4172() {
    useUpstreamRollingManifest(Profile.V4_17_2);
    runUntilStable();

    changeImage("nginx:1.28");
    runUntilStable();

    assertThat(List.of(image(0), image(1), image(2)))
        .containsExactly("nginx:1.27", "nginx:1.27", "nginx:1.28");
    JsonNode updated = condition(catset(), "Updated");
    assertThat(updated.path("reason").asText()).isEqualTo("RolloutWaiting");
    assertThat(updated.path("message").asText()).isEqualTo("missing child Pod nginx-backend-2");
    assertThat(mc.round().changed()).as("stalled for good").isFalse();
  }

  @Test
  void upstreamsRollingRecreateManifestRollsEveryPodWhereMetacontrollerWorksAsIntended() {
    useUpstreamRollingManifest(Profile.INTENDED);
    runUntilStable();
    long start = cluster.lastSequence();

    changeImage("nginx:1.28");
    runUntilStable();

    assertThat(podWrites(start, Write.Verb.DELETE)).containsExactly(2, 1, 0);
    assertEachDeletionWaitedForTheLastRecreatedPod(start);
    assertThat(List.of(image(0), image(1), image(2))).containsOnly("nginx:1.28");
    JsonNode updated = condition(catset(), "Updated");
    assertThat(updated.path("reason").asText()).isEqualTo("OnLatestRevision");
    assertThat(cluster.list("metacontroller.k8s.io/v1alpha1", "ControllerRevision")).hasSize(1);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void aDeletedPodIsSeenTerminatingCountedInReplicasAndNotDeletedAgain() {
    mc.profile(Profile.V4_17_2); // the API server's graceful deletion of a running Pod
    runUntilStable();
    setReplicas(2);

    mc.round(); // the hook drops nginx-backend-2; Metacontroller deletes it, it is Terminating
    Round seen = mc.round();

    ObjectNode request = mc.lastCall(CONTROLLER, "sync").request();
    assertThat(request.at("/children/Pod.v1/nginx-backend-2/metadata/deletionTimestamp").asText())
        .isNotEmpty();
    assertThat(mc.lastCall(CONTROLLER, "sync").responseJson().at("/status/replicas").asInt())
        .isEqualTo(3);
    assertThat(seen.writes())
        .noneMatch(
            w ->
                w.actor().equals(ACTOR)
                    && w.object().equals("Pod default/nginx-backend-2")
                    && w.verb() != Write.Verb.UPDATE_STATUS);
    runUntilStable();
    assertThat(podNames()).containsExactly("nginx-backend-0", "nginx-backend-1");
    assertThat(catset().at("/status/replicas").asInt()).isEqualTo(2);
  }

  @Test
  void aTemplateWithTolerationsSettlesAlthoughTheApiServerAddsItsOwn() {
    mc.profile(Profile.V4_17_2); // a real API server adds the default tolerations
    addToleration();

    runUntilStable();

    assertThat(pod(0).at("/spec/tolerations")).as("DefaultTolerationSeconds added two").hasSize(3);
    assertThat(catset().at("/status/readyReplicas").asInt()).isEqualTo(3);
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void upstreamsRollingRecreateManifestRecreatesPodsWithTolerationsForeverOnMetacontroller4172() {
    useUpstreamRollingManifest(Profile.V4_17_2);
    addToleration();

    assertThatThrownBy(() -> mc.runUntilStable(30))
        .hasMessageContaining("did not settle")
        .hasMessageContaining("Pod default/nginx-backend-0");
  }

  // ---- helpers

  /** A toleration in the template: a list without a merge key, which Metacontroller replaces whole. */
  private void addToleration() {
    cluster.update(
        API,
        "CatSet",
        "default",
        NAME,
        cs ->
            cs.withObject("/spec/template/spec")
                .putArray("tolerations")
                .addObject()
                .put("key", "dedicated")
                .put("operator", "Equal")
                .put("value", "web")
                .put("effect", "NoSchedule"));
  }

  /** Starts over with upstream's manifest, which lets Metacontroller roll the Pods. */
  private void useUpstreamRollingManifest(Profile profile) {
    cluster = Project.cluster();
    mc =
        Project.metacontroller(cluster)
            .profile(profile)
            .load("src/test/resources/emulator/catset-rolling-recreate.yaml");
    mc.world().pods(PodPolicy.pendingFor(1, PodPolicy.ready()));
    cluster.createFile("manifests/examples/catset.yaml");
  }

  private void changeImage(String image) {
    cluster.update(
        API,
        "CatSet",
        "default",
        NAME,
        cs -> ((ObjectNode) cs.at("/spec/template/spec/containers/0")).put("image", image));
  }

  private String image(int ordinal) {
    return pod(ordinal).at("/spec/containers/0/image").asText();
  }

  private void runUntilStable() {
    mc.runUntilStable(40);
  }

  private void assertNoHotLoopAndValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, CONTROLLER);
  }

  private void setReplicas(int replicas) {
    cluster.update(
        API,
        "CatSet",
        "default",
        NAME,
        cs -> ((ObjectNode) cs.get("spec")).put("replicas", replicas));
  }

  /** Runs rounds of a finalization, checking that Metacontroller's finalizer stays while any Pod is left. */
  private void runRoundsCheckingFinalizerHeldWhilePodsExist() {
    for (int i = 0; i < 20; i++) {
      Round round = mc.round();
      if (!cluster.list("v1", "Pod").isEmpty()) {
        assertThat(finalizers(catset()))
            .as("finalizers after round %d", round.number())
            .contains(OUR_FINALIZER);
      }
      if (!round.changed()) {
        assertThat(cluster.list("v1", "Pod")).isEmpty();
        return;
      }
    }
    throw new AssertionError("finalization did not settle");
  }

  /**
   * Ordinals of the Pods the controller created or deleted since {@code sequence}, in order. A deleted Pod
   * that the kubelet runs is only marked (Terminating) by the controller's delete; both count as DELETE here.
   */
  private List<Integer> podWrites(long sequence, Write.Verb verb) {
    return podWritesSince(sequence).stream()
        .filter(w -> verb(w) == verb)
        .map(w -> ordinal(w.object()))
        .toList();
  }

  private static Write.Verb verb(Write write) {
    return write.verb() == Write.Verb.MARK_DELETED ? Write.Verb.DELETE : write.verb();
  }

  private List<Write> podWritesSince(long sequence) {
    return cluster.writesAfter(sequence).stream()
        .filter(w -> w.actor().equals(ACTOR) && w.object().startsWith("Pod "))
        .filter(w -> verb(w) == Write.Verb.CREATE || verb(w) == Write.Verb.DELETE)
        .toList();
  }

  /** Every Pod created since {@code sequence} found all lower ordinals Running and Ready at that moment. */
  private void assertEachCreationWaitedForLowerOrdinals(long sequence) {
    for (Write create : podWritesSince(sequence)) {
      if (create.verb() != Write.Verb.CREATE) {
        continue;
      }
      for (int lower = 0; lower < ordinal(create.object()); lower++) {
        assertThat(readyAt(lower, create.sequence()))
            .as("pod %d Ready when %s was created", lower, create.object())
            .isTrue();
      }
    }
  }

  /** Each Pod deleted for the roll (after the first) waited until the Pod recreated before it was Ready. */
  private void assertEachDeletionWaitedForTheLastRecreatedPod(long sequence) {
    int lastRecreated = -1;
    for (Write write : podWritesSince(sequence)) {
      if (write.verb() == Write.Verb.CREATE) {
        lastRecreated = ordinal(write.object());
      } else if (lastRecreated >= 0) {
        assertThat(readyAt(lastRecreated, write.sequence()))
            .as("pod %d Ready when %s was deleted", lastRecreated, write.object())
            .isTrue();
      }
    }
  }

  /** In no round did the controller create or delete more than one Pod. */
  private void assertAtMostOnePodChangePerRound() {
    for (Round round : mc.rounds()) {
      long changes =
          round.writes().stream()
              .filter(w -> w.actor().equals(ACTOR) && w.object().startsWith("Pod "))
              .filter(w -> verb(w) == Write.Verb.CREATE || verb(w) == Write.Verb.DELETE)
              .count();
      assertThat(changes)
          .as("Pod creations and deletions in round %d", round.number())
          .isLessThanOrEqualTo(1);
    }
  }

  /** Whether Pod {@code ordinal} was Running and Ready just before the write numbered {@code sequence}. */
  private boolean readyAt(int ordinal, long sequence) {
    String object = "Pod default/" + NAME + "-" + ordinal;
    ObjectNode state = null;
    for (Write write : cluster.writes()) {
      if (write.sequence() >= sequence) {
        break;
      }
      if (write.object().equals(object)) {
        state = write.after();
      }
    }
    return state != null
        && state.at("/status/phase").asText().equals("Running")
        && condition(state, "Ready").path("status").asText().equals("True");
  }

  private static int ordinal(String object) {
    return Integer.parseInt(object.substring(object.lastIndexOf('-') + 1));
  }

  private static JsonNode condition(ObjectNode object, String type) {
    for (JsonNode condition : object.at("/status/conditions")) {
      if (condition.path("type").asText().equals(type)) {
        return condition;
      }
    }
    return MissingNode.getInstance();
  }

  private static List<String> finalizers(ObjectNode object) {
    List<String> finalizers = new ArrayList<>();
    object.at("/metadata/finalizers").forEach(f -> finalizers.add(f.asText()));
    return finalizers;
  }

  private ObjectNode catset() {
    return cluster.get(API, "CatSet", "default", NAME);
  }

  private ObjectNode pod(int ordinal) {
    return cluster.get("v1", "Pod", "default", NAME + "-" + ordinal);
  }

  private List<String> podNames() {
    return new ArrayList<>(podUids().keySet());
  }

  private List<String> claimNames() {
    return new ArrayList<>(claimUids().keySet());
  }

  private Map<String, String> podUids() {
    return uidsByName("v1", "Pod");
  }

  private Map<String, String> claimUids() {
    return uidsByName("v1", "PersistentVolumeClaim");
  }

  private Map<String, String> uidsByName(String apiVersion, String kind) {
    return cluster.list(apiVersion, kind).stream()
        .collect(
            Collectors.toMap(
                o -> o.at("/metadata/name").asText(),
                o -> o.at("/metadata/uid").asText(),
                (a, b) -> a,
                TreeMap::new));
  }
}
