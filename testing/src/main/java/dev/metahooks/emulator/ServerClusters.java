package dev.metahooks.emulator;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * The real API server chosen for a whole test: while one is chosen, every {@link Cluster} the test's thread makes (by
 * a scenario's own {@code new Cluster()}, {@code Cluster.withCrds}, or an {@code Emulator}) stores its objects there,
 * so scenarios written for the in-memory store run unchanged. {@link #end} deletes what they left.
 *
 * <p>The choice belongs to the thread that made it, so tests may run at once, each on its own thread: their
 * namespaces on the server are their own ({@link NamespaceMap}).
 */
public final class ServerClusters {
  /** A server chosen for a test, and the clusters made for it. */
  private record Choice(KubernetesClient client, String test, List<Cluster> made) {}

  private static final ThreadLocal<Choice> CHOSEN = new ThreadLocal<>();

  private ServerClusters() {}

  /**
   * From now on every new cluster this thread makes stores its objects in this server, its namespaces annotated with
   * the test's name.
   */
  public static void begin(KubernetesClient server, String testName) {
    Choice chosen = CHOSEN.get();
    if (chosen != null) {
      throw new IllegalStateException("a real API server is already chosen for " + chosen.test());
    }
    CHOSEN.set(new Choice(server, testName, new ArrayList<>()));
  }

  /**
   * New clusters of this thread are in memory again; the clusters made since {@link #begin} delete what they left on
   * the server.
   */
  public static void end() {
    Choice chosen = CHOSEN.get();
    CHOSEN.remove();
    if (chosen == null) {
      return;
    }
    RuntimeException failure = null;
    for (Cluster cluster : chosen.made()) {
      try {
        cluster.close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    if (failure != null) {
      throw failure;
    }
  }

  /** Whether a real API server is chosen for the test running on this thread. */
  public static boolean chosen() {
    return CHOSEN.get() != null;
  }

  /** A cluster was made: on the chosen server, if this thread has one. */
  static void joined(Cluster cluster) {
    Choice chosen = CHOSEN.get();
    if (chosen != null) {
      chosen.made().add(cluster);
      cluster.onServer(chosen.client(), chosen.test());
    }
  }
}
