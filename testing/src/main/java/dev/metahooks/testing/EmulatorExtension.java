package dev.metahooks.testing;

import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Metacontroller;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that starts an {@link Emulator} for a scenario and stops it after: a fresh one for every test
 * when registered on an instance field, one for the whole class on a static field.
 *
 * <pre>{@code
 * @RegisterExtension
 * final EmulatorExtension emulator = new EmulatorExtension(Emulator.serving(GreetingController.controller())
 *     .crds(Path.of("k8s/greetings.example.com.yaml"))
 *     .manifests(Path.of("k8s/greeting-controller.yaml")));
 *
 * @Test
 * void aGreetingGetsItsConfigMap() {
 *   emulator.cluster().createFile("k8s/sample.yaml");
 *   emulator.metacontroller().runUntilStable(10);
 *   ...
 * }
 * }</pre>
 */
public final class EmulatorExtension
    implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback, AfterAllCallback {
  private final Emulator.Builder builder;
  private Emulator running;
  private boolean perClass;

  /**
   * @param builder what each emulator serves and knows, started before each test (or once, on a static field)
   */
  public EmulatorExtension(Emulator.Builder builder) {
    this.builder = builder;
  }

  /** JUnit calls this only for an extension on a static field: one emulator for the class. */
  @Override
  public void beforeAll(ExtensionContext context) {
    perClass = true;
    running = builder.start();
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    if (!perClass) {
      running = builder.start();
    }
  }

  @Override
  public void afterEach(ExtensionContext context) {
    if (!perClass) {
      stop();
    }
  }

  @Override
  public void afterAll(ExtensionContext context) {
    stop();
  }

  /** The running emulator; only inside a test (or, on a static field, the class's callbacks). */
  public Emulator emulator() {
    if (running == null) {
      throw new IllegalStateException("no emulator runs outside a test");
    }
    return running;
  }

  /** The emulator's API server: {@code emulator().cluster()}. */
  public Cluster cluster() {
    return emulator().cluster();
  }

  /** The emulator's Metacontroller: {@code emulator().metacontroller()}. */
  public Metacontroller metacontroller() {
    return emulator().metacontroller();
  }

  private void stop() {
    if (running != null) {
      running.close();
      running = null;
    }
  }
}
