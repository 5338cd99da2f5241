package dev.metahooks.testing;

import dev.metahooks.emulator.ServerClusters;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Runs a test's scenarios with a real API server as the emulator's store: every {@code Cluster} the test makes (its
 * own, {@code Cluster.withCrds}, an {@link Emulator} or {@link EmulatorExtension}) keeps its objects in the
 * {@link ControlPlane#shared() shared control plane}, each namespace it names a namespace of its own there, and after
 * the test what it left is deleted. Metacontroller stays the emulated one; validation, defaults, garbage collection,
 * the workload controllers, the scheduler and the nodes (KWOK) are real. A scenario written for the in-memory store
 * runs unchanged:
 *
 * <pre>{@code
 * @ExtendWith(OnKubeApiServer.class)
 * class GreetingKubeIT extends GreetingScenarioTest {}
 * }</pre>
 *
 * Without a control plane the test is skipped (outside CI) with a message saying how to build one; a scenario that
 * asks the world for what a real cluster cannot do ({@code World.none()}, workloads held unready, the intended
 * profile) is aborted with the reason. docs/emulator.md, "A real API server", has the rest.
 */
public final class OnKubeApiServer implements BeforeEachCallback, AfterEachCallback {
  @Override
  public void beforeEach(ExtensionContext context) {
    ControlPlane controlPlane = ControlPlane.shared();
    ServerClusters.begin(
        controlPlane.client(),
        context.getRequiredTestClass().getSimpleName()
            + "."
            + context.getRequiredTestMethod().getName());
  }

  @Override
  public void afterEach(ExtensionContext context) {
    ServerClusters.end();
  }
}
