package dev.metahooks.emulator;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/**
 * The real API server chosen for a whole test: while one is chosen, every {@link Cluster} made (by a scenario's own
 * {@code new Cluster()}, {@code Cluster.withCrds}, or an {@code Emulator}) stores its objects there, so scenarios
 * written for the in-memory store run unchanged. {@link #end} deletes what they left. One test at a time.
 */
public final class ServerClusters {
  private static final Object LOCK = new Object();
  private static KubernetesClient client;
  private static String test;
  private static final List<Cluster> MADE = new ArrayList<>();

  private ServerClusters() {}

  /** From now on every new cluster stores its objects in this server, its namespaces annotated with the test's name. */
  public static void begin(KubernetesClient server, String testName) {
    synchronized (LOCK) {
      if (client != null) {
        throw new IllegalStateException("a real API server is already chosen for " + test);
      }
      client = server;
      test = testName;
    }
  }

  /** New clusters are in memory again; the clusters made since {@link #begin} delete what they left on the server. */
  public static void end() {
    List<Cluster> made;
    synchronized (LOCK) {
      made = List.copyOf(MADE);
      MADE.clear();
      client = null;
      test = null;
    }
    RuntimeException failure = null;
    for (Cluster cluster : made) {
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

  /** Whether a real API server is chosen for the running test. */
  public static boolean chosen() {
    synchronized (LOCK) {
      return client != null;
    }
  }

  /** A cluster was made: on the chosen server, if there is one. */
  static void joined(Cluster cluster) {
    KubernetesClient server;
    String name;
    synchronized (LOCK) {
      server = client;
      name = test;
      if (server != null) {
        MADE.add(cluster);
      }
    }
    if (server != null) {
      cluster.onServer(server, name);
    }
  }
}
