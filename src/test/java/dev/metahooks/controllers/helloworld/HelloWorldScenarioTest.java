package dev.metahooks.controllers.helloworld;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.testing.Emulator;
import dev.metahooks.testing.EmulatorExtension;
import dev.metahooks.testing.kube.KubeSchema;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * hello-world end to end: the real manifest and server under the emulated Metacontroller, set up through the testing
 * kit's {@link EmulatorExtension} exactly as a user's project sets up its own controller (the example of
 * docs/writing-a-controller.md).
 */
class HelloWorldScenarioTest {
  /** A fresh emulator for every test, stopped after it. */
  @RegisterExtension
  final EmulatorExtension emulator =
      new EmulatorExtension(
          Emulator.serving(HelloWorldController.controller())
              .crds(Path.of("manifests/crds/helloworlds.example.com.yaml"))
              .manifests(Path.of("metacontroller/hello-world.yaml")));

  private Cluster cluster;
  private Metacontroller mc;

  @BeforeEach
  void setUp() {
    cluster = emulator.cluster();
    mc = emulator.metacontroller();
    cluster.createFile("manifests/examples/hello-world.yaml");
  }

  @Test
  void createsAGreetingPodAndCountsIt() {
    mc.runUntilStable(10);

    ObjectNode pod = cluster.get("v1", "Pod", "default", "your-name");
    assertThat(pod.at("/spec/containers/0/command"))
        .isEqualTo(json("[\"echo\",\"Hello, Your Name!\"]"));
    assertThat(pod.at("/metadata/ownerReferences/0/kind").asText()).isEqualTo("HelloWorld");
    assertThat(pod.at("/metadata/labels/controller-uid").asText())
        .isEqualTo(
            cluster
                .get("example.com/v1", "HelloWorld", "default", "your-name")
                .at("/metadata/uid")
                .asText());
    ObjectNode parent = cluster.get("example.com/v1", "HelloWorld", "default", "your-name");
    assertThat(parent.at("/status/pods").asInt()).isEqualTo(1);
    assertThat(parent.at("/status/observedGeneration").asLong()).isEqualTo(1);
    KubeSchema.assertValid(pod);
  }

  @Test
  void changingWhoRecreatesThePod() {
    mc.runUntilStable(10);
    String oldUid = cluster.get("v1", "Pod", "default", "your-name").at("/metadata/uid").asText();

    cluster.update(
        "example.com/v1",
        "HelloWorld",
        "default",
        "your-name",
        hello -> hello.withObject("/spec").put("who", "Metacontroller"));
    mc.runUntilStable(10);

    ObjectNode pod = cluster.get("v1", "Pod", "default", "your-name");
    assertThat(pod.at("/spec/containers/0/command/1").asText()).isEqualTo("Hello, Metacontroller!");
    assertThat(pod.at("/metadata/uid").asText()).isNotEqualTo(oldUid);
    ObjectNode parent = cluster.get("example.com/v1", "HelloWorld", "default", "your-name");
    assertThat(parent.at("/status/observedGeneration").asLong()).isEqualTo(2);
    assertThat(parent.at("/status/pods").asInt()).isEqualTo(1);
  }

  @Test
  void deletingTheParentCollectsThePod() {
    mc.runUntilStable(10);

    cluster.delete("example.com/v1", "HelloWorld", "default", "your-name");
    mc.runUntilStable(10);

    assertThat(cluster.find("v1", "Pod", "default", "your-name")).isEmpty();
    assertThat(cluster.list("v1", "Pod")).isEmpty();
  }
}
