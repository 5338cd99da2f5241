package dev.metahooks.controllers.postgres.children;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Patroni's Role: its own cluster's pods and ConfigMaps by name, for every ordinal the StatefulSet may have. */
class PatroniRbacTest {
  @Test
  void patroniMayWriteOnlyItsOwnConfigMapsAndMembersByName() {
    List<ObjectNode> rbac = PatroniRbac.build("pg", "shop", List.of("pg-0", "pg-1"));
    rbac.forEach(KubeSchema::assertValid);
    assertThat(rbac)
        .extracting(o -> o.path("kind").asText() + "/" + Names.of(o))
        .containsExactly("ServiceAccount/pg-patroni", "Role/pg-patroni", "RoleBinding/pg-patroni");
    assertThat(rbac.get(1).path("rules"))
        .isEqualTo(
            json(
                "["
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],\"verbs\":[\"create\",\"list\",\"watch\"]},"
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"configmaps\"],"
                    + "\"resourceNames\":[\"pg-config\",\"pg-leader\",\"pg-failover\",\"pg-sync\"],\"verbs\":[\"get\",\"patch\"]},"
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"verbs\":[\"list\",\"watch\"]},"
                    + "{\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"resourceNames\":[\"pg-0\",\"pg-1\"],\"verbs\":[\"patch\"]}]"));
    assertThat(rbac.get(2).at("/subjects/0"))
        .isEqualTo(
            json("{\"kind\":\"ServiceAccount\",\"name\":\"pg-patroni\",\"namespace\":\"shop\"}"));
  }

  @Test
  void withoutMembersThereIsNoPodRuleThatCouldMatchEveryPod() {
    ObjectNode role = PatroniRbac.role("pg", List.of());
    for (JsonNode rule : role.path("rules")) {
      if (!rule.has("resourceNames")) {
        assertThat(verbs(rule))
            .as("a rule for any name: %s", rule)
            .isSubsetOf("list", "watch", "create");
      }
    }
    List<JsonNode> podWrites = new ArrayList<>();
    role.path("rules")
        .forEach(
            rule -> {
              if (rule.at("/resources/0").asText().equals("pods")
                  && verbs(rule).contains("patch")) {
                podWrites.add(rule);
              }
            });
    assertThat(podWrites).isEmpty();
  }

  @Test
  void aScaleUpNamesTheNewMembersInTheAnswerThatAsksForThem() {
    ObservedRequests world = running("pg", 3);
    world.edit(spec -> spec.put("instances", 5));
    JsonNode answer = world.sync();
    assertThat(replicas(answer)).isEqualTo(5);
    assertThat(podNames(answer)).containsExactly("pg-0", "pg-1", "pg-2", "pg-3", "pg-4");
  }

  @Test
  void aScaleDownKeepsTheRemovedMembersUntilTheirPodsAreGone() {
    ObservedRequests world = running("pg", 3);
    // The primary on ordinal 2: the StatefulSet keeps three replicas while it moves.
    world.runPods(Set.of(), 2, false);
    world.edit(spec -> spec.put("instances", 1));
    JsonNode held = world.sync();
    assertThat(replicas(held)).isEqualTo(3);
    assertThat(podNames(held)).containsExactly("pg-0", "pg-1", "pg-2");

    // It moved: the StatefulSet shrinks, and its two removed pods still stop (being deleted, still
    // observed).
    world.runPods(Set.of(), 0, false);
    JsonNode shrinking = world.sync();
    assertThat(replicas(shrinking)).isEqualTo(1);
    world.statefulSet().withObjectProperty("status").put("replicas", 1);
    world
        .pods
        .get("pg-1")
        .withObjectProperty("metadata")
        .put("deletionTimestamp", "2026-01-01T00:00:00Z");
    world
        .pods
        .get("pg-2")
        .withObjectProperty("metadata")
        .put("deletionTimestamp", "2026-01-01T00:00:00Z");
    assertThat(podNames(world.sync())).containsExactly("pg-0", "pg-1", "pg-2");

    // Gone: only the member that stays.
    world.pods.remove("pg-1");
    world.pods.remove("pg-2");
    assertThat(podNames(world.sync())).containsExactly("pg-0");
  }

  @Test
  void hibernationWithEveryPodGoneNamesNoPod() {
    ObservedRequests world = running("pg", 2);
    world.edit(spec -> spec.put("instances", 0));
    world.sync();
    world.pods.clear();
    world.statefulSet().withObjectProperty("status").put("replicas", 0);
    JsonNode answer = world.sync();
    assertThat(podNames(answer)).isEmpty();
    assertThat(role(answer).path("rules").toString()).contains("\"resourceNames\":[\"pg-config\"");
  }

  private static ObservedRequests running(String name, int instances) {
    ObservedRequests world = new ObservedRequests(name, Json.object().put("instances", instances));
    world.sync();
    world.runAllReady();
    world.sync();
    return world;
  }

  private static int replicas(JsonNode answer) {
    for (JsonNode child : answer.path("children")) {
      if (child.path("kind").asText().equals("StatefulSet")) {
        return child.at("/spec/replicas").asInt();
      }
    }
    throw new AssertionError("no StatefulSet");
  }

  private static JsonNode role(JsonNode answer) {
    for (JsonNode child : answer.path("children")) {
      if (child.path("kind").asText().equals("Role")
          && child.at("/metadata/name").asText().endsWith("-patroni")) {
        return child;
      }
    }
    throw new AssertionError("no Patroni Role");
  }

  /** The pods Patroni's Role lets it patch. */
  private static List<String> podNames(JsonNode answer) {
    List<String> names = new ArrayList<>();
    for (JsonNode rule : role(answer).path("rules")) {
      if (rule.at("/resources/0").asText().equals("pods") && rule.has("resourceNames")) {
        assertThat(verbs(rule)).containsExactly("patch");
        rule.path("resourceNames").forEach(name -> names.add(name.asText()));
      }
    }
    return names;
  }

  private static List<String> verbs(JsonNode rule) {
    List<String> verbs = new ArrayList<>();
    rule.path("verbs").forEach(verb -> verbs.add(verb.asText()));
    return verbs;
  }
}
