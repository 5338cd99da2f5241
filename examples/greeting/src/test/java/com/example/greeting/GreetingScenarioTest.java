package com.example.greeting;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Emitted;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testing.Emulator;
import dev.metahooks.testing.EmulatorExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The greeting controller under an emulated Metacontroller: the real server, the real manifests, no cluster. */
class GreetingScenarioTest {
  /** A fresh emulator for every test, stopped after it. */
  @RegisterExtension
  final EmulatorExtension emulator = new EmulatorExtension(Emulator.serving(GreetingController.controller())
      .crds(Path.of("k8s/greetings.example.com.yaml"))
      .manifests(Path.of("k8s/greeting-controller.yaml")));
  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void start() {
    cluster = emulator.cluster();
    mc = emulator.metacontroller();
  }

  @Test
  void aGreetingGetsItsConfigMapAndAStatus() {
    cluster.createFile("k8s/sample.yaml");
    mc.runUntilStable(10);

    assertThat(cluster.get("v1", "ConfigMap", "default", "team-greeting").at("/data/message").asText())
        .isEqualTo("Hello, Team!");
    assertThat(cluster.get("example.com/v1", "Greeting", "default", "team").at("/status/configMaps").asInt())
        .isEqualTo(1);
    Emitted.assertAllValid(mc, "greeting-controller");
  }

  @Test
  void changingTheLanguageUpdatesTheConfigMapInPlace() {
    cluster.createFile("k8s/sample.yaml");
    mc.runUntilStable(10);
    String uid = cluster.get("v1", "ConfigMap", "default", "team-greeting").at("/metadata/uid").asText();

    cluster.update("example.com/v1", "Greeting", "default", "team",
        greeting -> greeting.withObject("/spec").put("language", "de"));
    mc.runUntilStable(10);

    assertThat(cluster.get("v1", "ConfigMap", "default", "team-greeting").at("/data/message").asText())
        .isEqualTo("Hallo, Team!");
    assertThat(cluster.get("v1", "ConfigMap", "default", "team-greeting").at("/metadata/uid").asText())
        .isEqualTo(uid);
  }

  @Test
  void deletingTheGreetingCollectsTheConfigMap() {
    cluster.createFile("k8s/sample.yaml");
    mc.runUntilStable(10);

    cluster.delete("example.com/v1", "Greeting", "default", "team");
    mc.runUntilStable(10);

    assertThat(cluster.find("v1", "ConfigMap", "default", "team-greeting")).isEmpty();
  }

  @Test
  void anUnknownLanguageIsASyncErrorNamingTheField() {
    cluster.create("""
        {"apiVersion": "example.com/v1", "kind": "Greeting", "metadata": {"name": "odd"},
         "spec": {"who": "Team", "language": "xx"}}""");
    mc.tolerateSyncErrors().runUntilStable(10);

    assertThat(mc.syncErrors()).isNotEmpty();
    assertThat(mc.syncErrors().get(0).toString()).contains("parent.spec.language");
    assertThat(cluster.find("v1", "ConfigMap", "default", "odd-greeting")).isEmpty();
  }
}
