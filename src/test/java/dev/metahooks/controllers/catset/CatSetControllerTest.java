package dev.metahooks.controllers.catset;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Hook;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import java.util.List;
import org.junit.jupiter.api.Test;

class CatSetControllerTest {
  private static final String TEMPLATE =
      "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"nginx\"}]}}";
  private static final String CLAIMS =
      "[{\"metadata\":{\"name\":\"www\"},\"spec\":{\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}]";

  @Test
  void readsOrdinalsAsUpstreamDoes() {
    assertThat(CatSetPods.ordinal("web", "web-007")).hasValue(7);
    assertThat(CatSetPods.ordinal("db-1", "db-1-2")).hasValue(2);
    assertThat(CatSetPods.ordinal("web", "web-x-1")).isEmpty();
    assertThat(CatSetPods.ordinal("web", "web-")).isEmpty();
    assertThat(CatSetPods.ordinal("web", "web1")).isEmpty();
    assertThat(
            CatSetPods.name(
                "web", CatSetPods.ordinal("web", "web-99999999999999999999").getAsDouble()))
        .isEqualTo("web-100000000000000000000");
  }

  @Test
  void theFirstReadyConditionDecides() {
    assertThat(CatSetPods.runningAndReady(pod("web-0", "Running", "True"))).isTrue();
    assertThat(CatSetPods.runningAndReady(pod("web-0", "Pending", "True"))).isFalse();
    ObjectNode twoConditions = pod("web-0", "Running", "False");
    ((ObjectNode) twoConditions.get("status"))
        .withArray("conditions")
        .addObject()
        .put("type", "Ready")
        .put("status", "True");
    assertThat(CatSetPods.runningAndReady(twoConditions)).isFalse();
  }

  @Test
  void aDeletionTimestampOnlyCountsWhenTruthy() {
    ObjectNode deleting = pod("web-0", "Running", "True");
    ((ObjectNode) deleting.get("metadata")).put("deletionTimestamp", "2026-01-01T00:00:00Z");
    assertThat(CatSetPods.runningAndReady(deleting)).isFalse();
    ((ObjectNode) deleting.get("metadata")).put("deletionTimestamp", "");
    assertThat(CatSetPods.runningAndReady(deleting)).isTrue();
  }

  @Test
  void malformedPodStatusIsNotReadyRatherThanAnError() {
    ObjectNode pod = pod("web-0", "Running", "True");
    ((ObjectNode) pod.get("status")).put("conditions", "Ready");
    assertThat(CatSetPods.runningAndReady(pod)).isFalse();
    pod.put("status", "Running");
    assertThat(CatSetPods.runningAndReady(pod)).isFalse();
  }

  @Test
  void startsOnePodAtATimeAndListsHighestOrdinalFirst() {
    CompositeResponse response =
        sync(
            "{\"replicas\":3,\"template\":" + TEMPLATE + "}",
            List.of(pod("web-0", "Running", "True"), pod("web-1", "Running", "True")),
            false);
    assertThat(names(response)).containsExactly("web-2", "web-1", "web-0");
    assertThat(response.status()).isEqualTo(json("{\"replicas\":2,\"readyReplicas\":2}"));
    assertThat(response.finalized()).isNull();
  }

  @Test
  void replicasThatAreNotANumberAreRefusedInsteadOfDroppingEveryClaim() {
    // Upstream compares spec.replicas as JavaScript does: absent or "three" is NaN, so every
    // PersistentVolumeClaim
    // (and with it the data) was dropped. A deliberate deviation: the spec is refused and nothing
    // changes.
    for (String replicas :
        new String[] {
          "",
          "\"replicas\":null,",
          "\"replicas\":\"1\",",
          "\"replicas\":\"three\",",
          "\"replicas\":true,",
          "\"replicas\":[3],"
        }) {
      assertThatThrownBy(
              () ->
                  sync(
                      "{"
                          + replicas
                          + "\"template\":"
                          + TEMPLATE
                          + ",\"volumeClaimTemplates\":"
                          + CLAIMS
                          + "}",
                      List.of(pod("web-0", "Running", "True")),
                      false))
          .as(replicas)
          .isInstanceOf(InvalidRequestException.class)
          .extracting(e -> ((InvalidRequestException) e).field())
          .isEqualTo("parent.spec.replicas");
    }
  }

  @Test
  void twoNamesForOneOrdinalBecomeOnePod() {
    CompositeResponse response =
        sync(
            "{\"replicas\":2,\"template\":" + TEMPLATE + "}",
            List.of(pod("web-1", "Running", "True"), pod("web-01", "Running", "True")),
            false);
    assertThat(names(response)).containsExactly("web-1", "web-0");
    assertThat(response.status().get("replicas").intValue()).isEqualTo(1);
  }

  @Test
  void emptyClaimTemplatesStillGiveEachPodAVolumeList() {
    CompositeResponse response =
        sync(
            "{\"replicas\":1,\"template\":" + TEMPLATE + ",\"volumeClaimTemplates\":[]}",
            List.of(),
            false);
    assertThat(response.children().get(0).path("spec").path("volumes").isArray()).isTrue();
  }

  @Test
  void finalizingWithoutPodsNeedsNoTemplate() {
    CompositeResponse response = sync("{\"replicas\":3}", List.of(), true);
    assertThat(response.children()).isEmpty();
    assertThat(response.finalized()).isTrue();
  }

  @Test
  void refusesWhatUpstreamCrashesOn() {
    assertThatThrownBy(() -> sync("{\"replicas\":1,\"template\":{\"spec\":{}}}", List.of(), false))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("parent.spec.template.metadata");
    assertThatThrownBy(
            () ->
                sync(
                    "{\"replicas\":1,\"template\":" + TEMPLATE + ",\"volumeClaimTemplates\":{}}",
                    List.of(),
                    false))
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("parent.spec.volumeClaimTemplates");
    assertThatThrownBy(
            () ->
                sync(
                    "{\"replicas\":1,\"template\":"
                        + TEMPLATE
                        + ",\"volumeClaimTemplates\":[{\"metadata\":{}}]}",
                    List.of(),
                    false))
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("parent.spec.volumeClaimTemplates[0].metadata.name");
    assertThatThrownBy(
            () ->
                sync(
                    "{\"replicas\":1e300,\"template\":"
                        + TEMPLATE
                        + ",\"volumeClaimTemplates\":"
                        + CLAIMS
                        + "}",
                    List.of(),
                    false))
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("parent.spec.replicas");
  }

  private static CompositeResponse sync(String spec, List<ObjectNode> pods, boolean finalizing) {
    ObjectNode body = Json.object();
    body.putObject("parent")
        .put("apiVersion", "ctl.enisoc.com/v1")
        .put("kind", "CatSet")
        .<ObjectNode>set("spec", read(spec))
        .putObject("metadata")
        .put("name", "web")
        .put("namespace", "default");
    if (finalizing) {
      ((ObjectNode) body.path("parent").path("metadata"))
          .put("deletionTimestamp", "2026-11-30T10:00:00Z");
    }
    ObjectNode children = body.putObject("children");
    ObjectNode podMap = children.putObject("Pod.v1");
    pods.forEach(pod -> podMap.set(pod.path("metadata").path("name").asText(), pod));
    children.putObject("PersistentVolumeClaim.v1");
    body.put("finalizing", finalizing);
    return CatSetController.sync(
        CompositeRequest.read(body, finalizing ? Hook.FINALIZE : Hook.SYNC));
  }

  private static ObjectNode pod(String name, String phase, String ready) {
    ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
    pod.putObject("metadata").put("name", name).put("namespace", "default");
    ObjectNode status = pod.putObject("status").put("phase", phase);
    status.putArray("conditions").addObject().put("type", "Ready").put("status", ready);
    return pod;
  }

  private static List<String> names(CompositeResponse response) {
    return response.children().stream().map(c -> c.path("metadata").path("name").asText()).toList();
  }

  private static ObjectNode read(String json) {
    try {
      return (ObjectNode) JsonTrees.MAPPER.readTree(json);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }
}
