package dev.metahooks.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.metahooks.controllers.helloworld.HelloWorldController;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension starts an emulator for each test (instance field) or for the class (static field) and stops it. */
class EmulatorExtensionTest {
  private static final List<String> PER_TEST = new ArrayList<>();

  static Emulator.Builder helloWorld() {
    return Emulator.serving(HelloWorldController.controller())
        .crds(Path.of("manifests/crds/helloworlds.example.com.yaml"))
        .manifests(Path.of("metacontroller/hello-world.yaml"));
  }

  @RegisterExtension final EmulatorExtension emulator = new EmulatorExtension(helloWorld());

  @Test
  void aTestGetsAFreshEmulator() {
    eachTestStartsEmpty();
  }

  @Test
  void andSoDoesTheNext() {
    eachTestStartsEmpty();
  }

  private void eachTestStartsEmpty() {
    assertThat(emulator.cluster().list("example.com/v1", "HelloWorld")).isEmpty();
    emulator.cluster().createFile("manifests/examples/hello-world.yaml");
    emulator.metacontroller().runUntilStable(10);
    assertThat(emulator.cluster().find("v1", "Pod", "default", "your-name")).isPresent();
    assertThat(answers(emulator.emulator().baseUrl())).isTrue();
    PER_TEST.add(emulator.emulator().baseUrl());
  }

  @AfterAll
  static void eachWasStoppedAfterItsTest() {
    assertThat(PER_TEST).hasSize(2).doesNotHaveDuplicates();
    PER_TEST.forEach(url -> assertThat(answers(url)).as(url).isFalse());
  }

  @Test
  void outsideATestThereIsNone() {
    EmulatorExtension unstarted = new EmulatorExtension(helloWorld());
    assertThatThrownBy(unstarted::cluster).hasMessage("no emulator runs outside a test");
  }

  static boolean answers(String baseUrl) {
    try {
      HttpClient.newHttpClient()
          .send(
              HttpRequest.newBuilder(URI.create(baseUrl + "/healthz")).build(),
              HttpResponse.BodyHandlers.discarding());
      return true;
    } catch (Exception e) {
      return false;
    }
  }
}
