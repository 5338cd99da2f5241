package dev.metahooks.controllers.updatestrategy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.Write;
import dev.metahooks.testsupport.Project;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * update-strategy end to end, following upstream's test.sh: OnDeleteDemo {@code odd-instance} and RecreateDemo
 * {@code rcd-instance} each own a ConfigMap {@code <name>-data}. An out-of-band change of a ConfigMap is not
 * a reason to recreate it; a new {@code configData} recreates the Recreate child once (and only once) and
 * leaves the OnDelete child alone until someone deletes it.
 */
class UpdateStrategyScenarioTest {
  private static final String API = "ctl.example.com/v1";
  private static final String ON_DELETE = "odd-instance-data";
  private static final String RECREATE = "rcd-instance-data";

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = Project.cluster();
    mc = Project.metacontroller(cluster, "metacontroller/update-strategy.yaml");
    cluster.createFile("manifests/examples/update-strategy.yaml");
  }

  @Test
  void bothConfigMapsGetTheFirstValue() {
    mc.runUntilStable(10);

    assertThat(value(ON_DELETE)).isEqualTo("v1");
    assertThat(value(RECREATE)).isEqualTo("v1");
    assertThat(parent("OnDeleteDemo", "odd-instance").at("/status/observedConfigData").asText())
        .isEqualTo("v1");
    assertThat(parent("RecreateDemo", "rcd-instance").at("/status/observedConfigData").asText())
        .isEqualTo("v1");
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void anOutOfBandSideEffectDoesNotCauseRecreation() {
    mc.runUntilStable(10);
    String onDeleteUid = uid(ON_DELETE);
    String recreateUid = uid(RECREATE);

    addSideEffect(ON_DELETE);
    addSideEffect(RECREATE);
    mc.runUntilStable(5);

    assertThat(uid(ON_DELETE)).isEqualTo(onDeleteUid);
    assertThat(uid(RECREATE)).isEqualTo(recreateUid);
    assertThat(configMap(ON_DELETE).at("/data/side-effect").asText()).isEqualTo("kept");
    assertThat(configMap(RECREATE).at("/data/side-effect").asText()).isEqualTo("kept");
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void newConfigDataRecreatesTheRecreateChildOnceAndWaitsForTheOnDeleteChildToBeDeleted() {
    mc.runUntilStable(10);
    addSideEffect(ON_DELETE);
    addSideEffect(RECREATE);
    mc.runUntilStable(5);
    String onDeleteUid = uid(ON_DELETE);
    String recreateUid = uid(RECREATE);
    long start = cluster.lastSequence();

    setConfigData("OnDeleteDemo", "odd-instance", "v2");
    setConfigData("RecreateDemo", "rcd-instance", "v2");
    mc.runUntilStable(10);

    // Recreate: a new object with the new value and without the side effect, deleted exactly once.
    assertThat(value(RECREATE)).isEqualTo("v2");
    assertThat(uid(RECREATE)).isNotEqualTo(recreateUid);
    assertThat(configMap(RECREATE).at("/data").has("side-effect")).isFalse();
    assertThat(deletes(RECREATE, start)).isEqualTo(1);
    String recreatedUid = uid(RECREATE);
    mc.runUntilStable(5);
    assertThat(uid(RECREATE)).isEqualTo(recreatedUid);

    // OnDelete: untouched, although its parent already reports the new value.
    assertThat(value(ON_DELETE)).isEqualTo("v1");
    assertThat(uid(ON_DELETE)).isEqualTo(onDeleteUid);
    assertThat(configMap(ON_DELETE).at("/data/side-effect").asText()).isEqualTo("kept");
    assertThat(deletes(ON_DELETE, start)).isZero();
    assertThat(parent("OnDeleteDemo", "odd-instance").at("/status/observedConfigData").asText())
        .isEqualTo("v2");

    cluster.delete("v1", "ConfigMap", "default", ON_DELETE);
    mc.runUntilStable(5);

    assertThat(value(ON_DELETE)).isEqualTo("v2");
    assertThat(uid(ON_DELETE)).isNotEqualTo(onDeleteUid);
    assertThat(configMap(ON_DELETE).at("/data").has("side-effect")).isFalse();
    assertNoHotLoopAndValidChildren();
  }

  @Test
  void deletingTheParentsCollectsTheirConfigMaps() {
    mc.runUntilStable(10);

    cluster.delete(API, "OnDeleteDemo", "default", "odd-instance");
    cluster.delete(API, "RecreateDemo", "default", "rcd-instance");
    mc.runUntilStable(5);

    assertThat(cluster.list("v1", "ConfigMap")).isEmpty();
  }

  // ---- helpers

  private void addSideEffect(String configMap) {
    cluster.update(
        "v1",
        "ConfigMap",
        "default",
        configMap,
        cm -> ((ObjectNode) cm.get("data")).put("side-effect", "kept"));
  }

  private void setConfigData(String kind, String name, String configData) {
    cluster.update(
        API,
        kind,
        "default",
        name,
        parent -> ((ObjectNode) parent.get("spec")).put("configData", configData));
  }

  private long deletes(String configMap, long sequence) {
    return cluster.writesAfter(sequence).stream()
        .filter(
            w ->
                w.object().equals("ConfigMap default/" + configMap)
                    && w.verb() == Write.Verb.DELETE)
        .count();
  }

  private void assertNoHotLoopAndValidChildren() {
    mc.runUntilStable(3);
    Emitted.assertAllValid(mc, "on-delete-demo-controller");
    Emitted.assertAllValid(mc, "recreate-demo-controller");
  }

  private ObjectNode parent(String kind, String name) {
    return cluster.get(API, kind, "default", name);
  }

  private ObjectNode configMap(String name) {
    return cluster.get("v1", "ConfigMap", "default", name);
  }

  private String value(String configMap) {
    return configMap(configMap).at("/data/value").asText();
  }

  private String uid(String configMap) {
    return configMap(configMap).at("/metadata/uid").asText();
  }
}
