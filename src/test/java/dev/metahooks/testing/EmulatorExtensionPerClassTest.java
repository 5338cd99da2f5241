package dev.metahooks.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** On a static field the extension starts one emulator for the class: what one test creates, the next one sees. */
class EmulatorExtensionPerClassTest {
  @RegisterExtension
  static final EmulatorExtension EMULATOR =
      new EmulatorExtension(EmulatorExtensionTest.helloWorld());

  private static final Set<String> URLS = new HashSet<>();
  private static int created;

  @Test
  void one() {
    createOnce();
  }

  @Test
  void two() {
    createOnce();
  }

  private void createOnce() {
    URLS.add(EMULATOR.emulator().baseUrl());
    if (EMULATOR.cluster().find("example.com/v1", "HelloWorld", "default", "your-name").isEmpty()) {
      EMULATOR.cluster().createFile("manifests/examples/hello-world.yaml");
      created++;
    }
    EMULATOR.metacontroller().runUntilStable(10);
    assertThat(EMULATOR.cluster().find("v1", "Pod", "default", "your-name")).isPresent();
  }

  @AfterAll
  static void bothTestsSharedOneEmulator() {
    assertThat(URLS).hasSize(1);
    assertThat(created).isEqualTo(1);
    assertThat(EmulatorExtensionTest.answers(URLS.iterator().next()))
        .isTrue(); // stopped after this method
  }
}
