package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.docs.MarkdownBlocks;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The examples of docs/postgrescluster/security.md's "Secrets a cluster may use", applied: the backup example's Secret
 * without its label is refused with the message the docs show, the docs' kubectl command gives it, and the standby
 * command gives a source's Secrets to its standby.
 */
class SecretMarksDocsTest {
  private static final String SECURITY = "docs/postgrescluster/security.md";
  private static final String BACKUPS = "docs/postgrescluster/backups-and-restore.md";

  /** {@code kubectl label secret NAME... -n NS KEY=VALUE} on the world's Secrets. */
  static void kubectlLabel(String command, ObservedRequests world) {
    List<String> words = Arrays.asList(command.trim().split("\\s+"));
    assertThat(words.subList(0, 3)).containsExactly("kubectl", "label", "secret");
    int namespaceFlag = words.indexOf("-n");
    assertThat(words.get(namespaceFlag + 1)).isEqualTo(world.namespace);
    String[] label = words.get(words.size() - 1).split("=", 2);
    for (String secret : words.subList(3, namespaceFlag)) {
      world
          .relatedSecrets
          .get(secret)
          .withObjectProperty("metadata")
          .withObjectProperty("labels")
          .put(label[0], label[1]);
    }
  }

  /** The backup example (Secret, then cluster) in a world that sends only what is given. */
  static ObservedRequests backupExample(boolean keepLabel) throws IOException {
    String example = MarkdownBlocks.first(BACKUPS, "Back up to an S3-compatible store", "yaml");
    List<ObjectNode> objects = new ArrayList<>();
    for (String document : example.split("\n---\n")) {
      objects.add((ObjectNode) new YAMLMapper().readTree(document));
    }
    ObjectNode secret = objects.get(0);
    ObjectNode cluster = objects.get(1);
    if (!keepLabel) {
      secret.withObjectProperty("metadata").remove("labels");
    }
    ObservedRequests world =
        new ObservedRequests(
            cluster.at("/metadata/name").asText(), (ObjectNode) cluster.get("spec"));
    world.secretsGiven = false;
    world.relatedSecrets.put(secret.at("/metadata/name").asText(), stored(secret));
    return world;
  }

  /** As the API server stores it: stringData folded into data. */
  static ObjectNode stored(ObjectNode secret) {
    ObjectNode copy = secret.deepCopy();
    JsonNode stringData = copy.remove("stringData");
    ObjectNode data = copy.withObjectProperty("data");
    stringData
        .fields()
        .forEachRemaining(
            field ->
                data.put(
                    field.getKey(),
                    java.util.Base64.getEncoder()
                        .encodeToString(field.getValue().asText().getBytes())));
    return copy;
  }

  @Test
  void theBackupExampleIsUsedWithItsLabelAndRefusedAsTheDocsShowWithoutIt() throws IOException {
    JsonNode given = backupExample(true).sync();
    assertThat(CrossClusterAccessTest.condition(given, "SpecValid").path("status").asText())
        .isEqualTo("True");

    ObservedRequests unmarked = backupExample(false);
    JsonNode refused = CrossClusterAccessTest.condition(unmarked.sync(), "SpecValid");
    assertThat(refused.path("status").asText()).isEqualTo("False");
    String shown =
        MarkdownBlocks.first(SECURITY, "Secrets a cluster may use", "text")
            .replace("SpecValid=False: ", "")
            .replaceAll("\\s*\n\\s*", " ")
            .trim();
    assertThat(refused.path("message").asText()).isEqualTo(shown);

    kubectlLabel(MarkdownBlocks.first(SECURITY, "Secrets a cluster may use", "sh"), unmarked);
    assertThat(
            CrossClusterAccessTest.condition(unmarked.sync(), "SpecValid").path("status").asText())
        .isEqualTo("True");
  }

  @Test
  void theStandbyCommandGivesTheSourcesSecretsToItsStandby() throws IOException {
    ObservedRequests world = StandbyClusterTest.archiveStandby();
    world.secretsGiven = false;
    world.relatedSecrets.put(
        "s3-creds",
        stored(
            (ObjectNode)
                new YAMLMapper()
                    .readTree(
                        """
        apiVersion: v1
        kind: Secret
        metadata: {name: s3-creds, namespace: shop, labels: {use.postgrescluster.metahooks.dev/orders-dr: "true"}}
        stringData: {AWS_ACCESS_KEY_ID: id, AWS_SECRET_ACCESS_KEY: key}
        """)));
    assertThat(CrossClusterAccessTest.condition(world.sync(), "SpecValid").path("status").asText())
        .isEqualTo("False");

    kubectlLabel(MarkdownBlocks.blocks(SECURITY, "Secrets a cluster may use", "sh").get(1), world);
    JsonNode answer = world.sync();

    assertThat(CrossClusterAccessTest.condition(answer, "SpecValid").path("status").asText())
        .isEqualTo("True");
    assertThat(StandbyClusterTest.password(world, "orders-dr-superuser"))
        .isEqualTo(StandbyClusterTest.SOURCE_SUPERUSER);
  }
}
