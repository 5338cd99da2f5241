package dev.metahooks.controllers.postgres;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.emulator.Cluster;
import dev.metahooks.emulator.LocalHooks;
import dev.metahooks.emulator.Metacontroller;
import dev.metahooks.emulator.World;
import dev.metahooks.emulator.Write;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** What the PostgresCluster scenario tests share: the emulated world of the HA sample, and what its pods went through. */
final class PostgresScenarios {
  static final Duration ROUND = Duration.ofSeconds(10);

  private PostgresScenarios() {}

  /**
   * Metacontroller with the real manifest against the hooks, StatefulSets that run pods, Patroni labelling the
   * leader and the cluster's clock ten seconds on per round; the HA sample created and settled.
   */
  static Metacontroller haSample(Cluster cluster, LocalHooks hooks) {
    Metacontroller mc =
        Metacontroller.forManifests(
            cluster, hooks.baseUrl(), "metacontroller/postgrescluster.yaml");
    mc.world(
        World.standard()
            .statefulSetPods(true)
            .add("patroni", PatroniSimulation::step)
            .add("clock", c -> c.advance(ROUND)));
    cluster.createFile("manifests/examples/postgrescluster-ha.yaml");
    mc.runUntilStable(60);
    return mc;
  }

  /**
   * What happened to the database pods of {@code default/<cluster>} since the mark, in order: {@code replaced <pod>}
   * when a pod of the StatefulSet is deleted for good (a Job's pods go with their Job), {@code switchover Job} when one is created, {@code leader <pod>} when Patroni's
   * label moves.
   */
  static List<String> podEvents(Cluster cluster, String name, long sequence) {
    List<String> events = new ArrayList<>();
    for (Write write : cluster.writesAfter(sequence)) {
      String object = write.object();
      if (write.verb() == Write.Verb.DELETE
          && object.startsWith("Pod default/")
          && ownedByAStatefulSet(write.before())) {
        events.add("replaced " + object.substring(object.indexOf('/') + 1));
      } else if (write.verb() == Write.Verb.CREATE
          && object.startsWith("Job default/" + name + "-switchover-")) {
        events.add("switchover Job");
      } else if (write.verb() == Write.Verb.UPDATE
          && object.startsWith("Pod ")
          && write.after() != null
          && Labels.LEADER.equals(write.after().at("/metadata/labels/" + Labels.ROLE).asText())
          && !Labels.LEADER.equals(write.before().at("/metadata/labels/" + Labels.ROLE).asText())) {
        events.add("leader " + object.substring(object.indexOf('/') + 1));
      }
    }
    return events;
  }

  private static boolean ownedByAStatefulSet(JsonNode pod) {
    return pod != null && "StatefulSet".equals(pod.at("/metadata/ownerReferences/0/kind").asText());
  }
}
