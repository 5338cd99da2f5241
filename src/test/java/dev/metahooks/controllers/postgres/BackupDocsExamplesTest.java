package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.sameJson;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.ProjectCrds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The YAML of docs/postgrescluster/backups-and-restore.md's "Backups and restore": every PostgresCluster there (and each spec
 * fragment, completed into one) fits the CRD's schema and reads without a problem.
 */
class BackupDocsExamplesTest {
  private static final String PAGE = "docs/postgrescluster/backups-and-restore.md";

  @Test
  void everyExampleFitsTheSchemaAndReadsWithoutProblems() throws IOException {
    List<ObjectNode> clusters = new ArrayList<>();
    for (String block : MarkdownBlocks.blocks(PAGE, "Backups and restore", "yaml")) {
      for (JsonNode document : Manifests.parse(block)) {
        if (document.path("kind").asText().equals("PostgresCluster")) {
          clusters.add((ObjectNode) document);
        } else if (document.has("spec")) {
          ObjectNode parent =
              Json.object()
                  .put("apiVersion", "metahooks.dev/v1alpha1")
                  .put("kind", "PostgresCluster");
          parent.putObject("metadata").put("name", "example").put("namespace", "shop");
          parent.set("spec", document.get("spec"));
          clusters.add(parent);
        }
      }
    }
    assertThat(clusters).hasSizeGreaterThanOrEqualTo(4);
    CrdSchema schema = ProjectCrds.forKind("metahooks.dev/v1alpha1", "PostgresCluster");
    for (ObjectNode parent : clusters) {
      schema.assertValid(parent);
      // As the API server gives it: a uid, under which a new cluster archives (the same-name
      // restore needs it).
      ((ObjectNode) parent.get("metadata")).put("uid", "5d21c0b4-2f6e-4a8e-bb43-1c0c7f9a2e07");
      ObjectNode defaulted = (ObjectNode) schema.withDefaults(parent);
      assertThat(SpecReader.read(defaulted).problems()).as(parent.toString()).isEmpty();
      assertThat(SpecReader.read(parent).problems()).as(parent.toString()).isEmpty();
    }
  }

  /** The escape hatch's command: the annotation the hook reads, set to the cluster's own uid. */
  @Test
  void theDeletionEscapeHatchCommandSetsTheAnnotationTheHookReadsToTheUid() throws IOException {
    String command = MarkdownBlocks.first(PAGE, "Final backup on deletion", "sh");
    assertThat(command.replace("\\\n", " "))
        .containsPattern(
            "kubectl -n shop annotate postgrescluster orders +"
                + Pattern.quote(
                    dev.metahooks.controllers.postgres.plan.FinalBackups.SKIP_ANNOTATION)
                + "=\"\\$\\(kubectl -n shop get postgrescluster orders -o jsonpath='\\{\\.metadata\\.uid\\}'\\)\"");
  }

  /** The report of "Physical backup health", put into a cluster's ConfigMap, gives the status shown beside it. */
  @Test
  void thePhysicalHealthExampleIsWhatTheHookReportsForItsReport() throws IOException {
    List<String> blocks = MarkdownBlocks.blocks(PAGE, "Physical backup health", "yaml");
    assertThat(blocks).hasSizeGreaterThanOrEqualTo(2);
    JsonNode report = Manifests.parse(blocks.get(0)).get(0).path("data");
    JsonNode shown = Manifests.parse(blocks.get(1)).get(0).path("status");

    BackupAnswersTest.Clock clock = new BackupAnswersTest.Clock();
    ObservedRequests world =
        new ObservedRequests("orders", BackupEnvironmentTest.withBackup(Json.object()));
    world.sources = clock;
    world.sync();
    world.runAllReady();
    world.sync();
    StoreCheckReports.write(world, (ObjectNode) report);
    world.sync();
    assertThat(world.status.at("/backup/physical"))
        .usingComparator(sameJson())
        .isEqualTo(shown.at("/backup/physical"));
    for (JsonNode condition : shown.path("conditions")) {
      assertThat(BackupAnswersTest.condition(world.status, condition.path("type").asText()))
          .isEqualTo(condition.path("status").asText() + " " + condition.path("reason").asText());
    }
    assertThat(MarkdownBlocks.first(PAGE, "Physical backup health", "sh"))
        .contains(
            "--from=cronjob/" + dev.metahooks.controllers.postgres.base.Names.storeCheck("orders"));
  }
}
