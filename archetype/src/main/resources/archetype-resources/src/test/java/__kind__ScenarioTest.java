package ${package};

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

/** The ${artifactId} controller under an emulated Metacontroller: the real server, the real manifests, no cluster. */
class ${kind}ScenarioTest {
  /** A fresh emulator for every test, stopped after it. */
  @RegisterExtension
  final EmulatorExtension emulator = new EmulatorExtension(Emulator.serving(${kind}Controller.controller())
      .crds(Path.of("k8s/crd.yaml"))
      .manifests(Path.of("k8s/${artifactId}-controller.yaml")));
  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void start() {
    cluster = emulator.cluster();
    mc = emulator.metacontroller();
  }

  @Test
  void a${kind}GetsItsConfigMapAndAStatus() {
    cluster.createFile("k8s/sample.yaml");
    mc.runUntilStable(10);

    assertThat(cluster.get("v1", "ConfigMap", "default", "team-${artifactId}").at("/data/message").asText())
        .isEqualTo("Hello, Team!");
    assertThat(cluster.get("${apiGroup}/v1", "${kind}", "default", "team").at("/status/configMaps").asInt())
        .isEqualTo(1);
    Emitted.assertAllValid(mc, "${artifactId}-controller");
  }

  @Test
  void changingTheLanguageUpdatesTheConfigMapInPlace() {
    cluster.createFile("k8s/sample.yaml");
    mc.runUntilStable(10);
    String uid = cluster.get("v1", "ConfigMap", "default", "team-${artifactId}").at("/metadata/uid").asText();

    cluster.update("${apiGroup}/v1", "${kind}", "default", "team",
        ${artifactId} -> ${artifactId}.withObject("/spec").put("language", "de"));
    mc.runUntilStable(10);

    assertThat(cluster.get("v1", "ConfigMap", "default", "team-${artifactId}").at("/data/message").asText())
        .isEqualTo("Hallo, Team!");
    assertThat(cluster.get("v1", "ConfigMap", "default", "team-${artifactId}").at("/metadata/uid").asText())
        .isEqualTo(uid);
  }

  @Test
  void deletingThe${kind}CollectsTheConfigMap() {
    cluster.createFile("k8s/sample.yaml");
    mc.runUntilStable(10);

    cluster.delete("${apiGroup}/v1", "${kind}", "default", "team");
    mc.runUntilStable(10);

    assertThat(cluster.find("v1", "ConfigMap", "default", "team-${artifactId}")).isEmpty();
  }

  @Test
  void anUnknownLanguageIsASyncErrorNamingTheField() {
    cluster.create("""
        {"apiVersion": "${apiGroup}/v1", "kind": "${kind}", "metadata": {"name": "odd"},
         "spec": {"who": "Team", "language": "xx"}}""");
    mc.tolerateSyncErrors().runUntilStable(10);

    assertThat(mc.syncErrors()).isNotEmpty();
    assertThat(mc.syncErrors().get(0).toString()).contains("parent.spec.language");
    assertThat(cluster.find("v1", "ConfigMap", "default", "odd-${artifactId}")).isEmpty();
  }
}
