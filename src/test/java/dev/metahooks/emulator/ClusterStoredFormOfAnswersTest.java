package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.TestKinds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every child and attachment of a built-in kind in the golden answers is already in the form the API server stores
 * it (canonical quantities, no empty optional lists or maps, no unknown fields, no {@code stringData}): a child
 * that is not differs from the stored object on every sync, and Metacontroller sends it again each time.
 */
class ClusterStoredFormOfAnswersTest {
  @Test
  void everyEmittedBuiltInObjectIsInStoredForm() {
    Cluster cluster = TestKinds.cluster();
    List<String> rewritten = new ArrayList<>();
    List<Path> answers = Resources.find(Resources.path("fixtures"), ".response.json");
    int checked = 0;
    for (Path answer : answers) {
      ObjectNode response = Resources.readObject(answer);
      for (String field : List.of("children", "attachments")) {
        for (JsonNode object : response.path(field)) {
          if (!(object instanceof ObjectNode child) || !builtIn(cluster, child)) {
            continue;
          }
          checked++;
          List<String> changes = JsonDiff.changes(child, cluster.storedForm(child));
          if (!changes.isEmpty()) {
            rewritten.add(
                Resources.ROOT.relativize(answer) + " " + Meta.describe(child) + ": " + changes);
          }
        }
      }
    }
    assertThat(checked).as("built-in objects in %d answers", answers.size()).isGreaterThan(100);
    assertThat(rewritten).as("stored otherwise than sent (sent -> stored)").isEmpty();
  }

  private static boolean builtIn(Cluster cluster, ObjectNode object) {
    return cluster
        .resources()
        .byKind(Meta.apiVersion(object), Meta.kind(object))
        .map(type -> cluster.resources().isBuiltIn(type))
        .orElse(false);
  }
}
