package dev.metahooks.testing;

import dev.metahooks.api.Controller;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Metacontroller in the JVM for one's own controllers, in one statement: the real hook server serving them on a
 * free port, a fake API server that knows the given CRDs, and Metacontroller's control loop with the given
 * CompositeController/DecoratorController manifests, their webhooks pointed at that server.
 *
 * <pre>{@code
 * try (Emulator emulator = Emulator.serving(GreetingController.controller())
 *     .crds(Path.of("k8s/greeting-crd.yaml"))
 *     .manifests(Path.of("k8s/greeting-controller.yaml"))
 *     .start()) {
 *   emulator.cluster().createFile("k8s/sample.yaml");
 *   emulator.metacontroller().runUntilStable(10);
 *   assertThat(emulator.cluster().find("v1", "ConfigMap", "default", "hello")).isPresent();
 * }
 * }</pre>
 *
 * {@link Cluster} and {@link Metacontroller} (docs/emulator.md) do the rest: scale, roll, finalize, delete.
 *
 * <p>{@link Builder#onServer} keeps the objects in a real API server instead of memory (docs/emulator.md, "A real API
 * server"); {@link OnKubeApiServer} does that for every cluster of a test.
 */
public final class Emulator implements AutoCloseable {
  private final LocalHooks hooks;
  private final Cluster cluster;
  private final Metacontroller metacontroller;

  private Emulator(LocalHooks hooks, Cluster cluster, Metacontroller metacontroller) {
    this.hooks = hooks;
    this.cluster = cluster;
    this.metacontroller = metacontroller;
  }

  public static Builder serving(Controller... controllers) {
    return serving(List.of(controllers));
  }

  public static Builder serving(List<Controller> controllers) {
    return new Builder(controllers);
  }

  public Cluster cluster() {
    return cluster;
  }

  public Metacontroller metacontroller() {
    return metacontroller;
  }

  /** Where the hooks are served, {@code http://localhost:<port>}. */
  public String baseUrl() {
    return hooks.baseUrl();
  }

  /** Stops the hooks; on a real API server, deletes what the scenario left there. */
  @Override
  public void close() {
    try {
      hooks.close();
    } finally {
      cluster.close();
    }
  }

  /** What the emulator serves and knows; {@link #start} makes it. */
  public static final class Builder {
    private final List<Controller> controllers;
    private final List<Path> crds = new ArrayList<>();
    private final List<Path> manifests = new ArrayList<>();
    private KubernetesClient server;

    private Builder(List<Controller> controllers) {
      this.controllers = List.copyOf(controllers);
    }

    /** CRDs the API server serves (YAML files, or directories of them). */
    public Builder crds(Path... crdFilesOrDirectories) {
      crds.addAll(List.of(crdFilesOrDirectories));
      return this;
    }

    /** CompositeController and DecoratorController manifests, loaded in order. */
    public Builder manifests(Path... controllerManifests) {
      manifests.addAll(List.of(controllerManifests));
      return this;
    }

    /**
     * Keeps the cluster's objects in this real API server (a {@link ControlPlane}'s client, say): Metacontroller is
     * still the emulated one, everything else is the server's and its controllers'.
     */
    public Builder onServer(KubernetesClient client) {
      this.server = client;
      return this;
    }

    public Emulator start() {
      LocalHooks hooks = LocalHooks.start(controllers);
      try {
        Cluster cluster = Cluster.withCrds(crds.toArray(Path[]::new));
        if (server != null && !cluster.isOnServer()) {
          cluster.onServer(
              server, "Emulator " + controllers.stream().map(Controller::name).toList());
        }
        Metacontroller mc =
            Metacontroller.forManifests(
                cluster,
                hooks.baseUrl(),
                manifests.stream().map(Path::toString).toArray(String[]::new));
        return new Emulator(hooks, cluster, mc);
      } catch (RuntimeException e) {
        hooks.close();
        throw e;
      }
    }
  }
}
