package dev.metahooks.testsupport;

import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.Metacontroller;

/**
 * This project's own use of the testing kit, as a user's project would set it up: a cluster that serves the CRDs of
 * {@code manifests/crds}, and a Metacontroller that calls the shared {@link TestServer} (every built-in controller).
 */
public final class Project {
  private Project() {}

  /** An empty cluster with the built-in kinds and this project's CRDs. */
  public static Cluster cluster() {
    return Cluster.withCrds(ProjectCrds.CRDS);
  }

  /** A Metacontroller with the controllers of these manifest files, calling the shared test server. */
  public static Metacontroller metacontroller(Cluster cluster, String... manifestPaths) {
    return Metacontroller.forManifests(cluster, TestServer.uri("").toString(), manifestPaths);
  }
}
