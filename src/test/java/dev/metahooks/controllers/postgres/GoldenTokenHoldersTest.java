package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.Preserved;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Who holds a ServiceAccount token in every pod template of every golden answer of the PostgresCluster hooks: a pod
 * whose programs never call the API server runs with {@code automountServiceAccountToken: false} and no account of
 * its own; a pod that runs as one of the cluster's accounts holds its token in the one container whose program calls
 * the API server, never in a sidecar or a step that runs another image. A child the answer keeps as the request
 * observed it (a Job's template cannot change) was rendered by an earlier build and is not judged here.
 */
class GoldenTokenHoldersTest {
  static final Path FIXTURES = Resources.path("fixtures/postgrescluster");

  /** Each account of a cluster ({@code <n>-<purpose>}) by purpose, and the container whose program calls the API. */
  static final Map<String, String> CALLER =
      Map.of(
          "patroni", "postgres",
          "backup", "backup",
          "restart", "restart",
          "resize", "resize",
          "upgrade", "upgrade",
          "cleanup", "cleanup",
          "store-check", "store-check");

  @Test
  void onlyTheContainersThatCallTheApiServerHoldAToken() {
    Map<String, Integer> judged = new TreeMap<>();
    int kept = 0;
    List<String> failures = new ArrayList<>();
    for (Path response : Resources.find(FIXTURES, ".response.json")) {
      ObjectNode request =
          Resources.readObject(
              Path.of(response.toString().replace(".response.json", ".request.json")));
      String cluster = request.at("/parent/metadata/name").asText();
      String fixture = FIXTURES.relativize(response).toString();
      for (JsonNode child : Resources.readObject(response).path("children")) {
        JsonNode pod = podSpec(child);
        if (pod == null) {
          continue;
        }
        if (keptAsObserved(request, (ObjectNode) child)) {
          kept++;
          continue;
        }
        judged.merge(child.path("kind").asText(), 1, Integer::sum);
        String what = fixture + " " + child.path("kind").asText() + " " + Names.of(child) + ": ";
        String holders = RenderedRbacTest.tokenHolders(pod);
        if (!pod.has("serviceAccountName")) {
          if (!pod.path("automountServiceAccountToken").isBoolean()
              || pod.path("automountServiceAccountToken").asBoolean()) {
            failures.add(
                what + "no account of its own, and automountServiceAccountToken is not false");
          }
          continue;
        }
        String account = pod.path("serviceAccountName").asText();
        String caller =
            account.startsWith(cluster + "-")
                ? CALLER.get(account.substring(cluster.length() + 1))
                : null;
        if (caller == null) {
          failures.add(
              what
                  + "runs as "
                  + account
                  + ", no account of the cluster's whose program calls the API");
        } else if (!holders.equals(account + ": " + caller)) {
          failures.add(what + "the token is in " + holders + ", expected in " + caller + " alone");
        }
      }
    }
    System.out.println(
        "GoldenTokenHoldersTest: pod templates judged by kind "
            + judged
            + ", kept as observed "
            + kept);
    assertThat(judged).containsKeys("StatefulSet", "Job", "CronJob", "Deployment");
    assertThat(failures).isEmpty();
  }

  /** The pod spec of a StatefulSet, Job, CronJob or Deployment; null for other kinds. */
  static JsonNode podSpec(JsonNode child) {
    return switch (child.path("kind").asText()) {
      case "StatefulSet", "Job", "Deployment" -> child.at("/spec/template/spec");
      case "CronJob" -> child.at("/spec/jobTemplate/spec/template/spec");
      default -> null;
    };
  }

  /**
   * Whether the answer returns {@code child} as the request observed it (its last-applied configuration). Found by
   * name, not by key: a v1 request keys the children by name, a v2 one by namespace/name.
   */
  private static boolean keptAsObserved(ObjectNode request, ObjectNode child) {
    for (JsonNode group : request.path("children")) {
      for (JsonNode observed : group) {
        if (observed instanceof ObjectNode object
            && Names.of(object).equals(Names.of(child))
            && object.path("kind").asText().equals(child.path("kind").asText())
            && Preserved.child(object).equals(child)) {
          return true;
        }
      }
    }
    return false;
  }
}
