package dev.metahooks.controllers.postgres.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.BackupAnswersTest;
import dev.metahooks.controllers.postgres.BackupEnvironmentTest;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.StandbyClusterTest;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A clone, a logical restore and a standby that read another cluster's archive without naming its prefix: taken
 * only where the source, seen by the hook, archives; refused otherwise with the prefix to give.
 */
class SourceArchivesTest {
  private static final String SOURCE = "orders";

  /** The source as a cluster created by this version shows itself: its archive under its uid. */
  private static ObjectNode sourceOfThisVersion() {
    ObservedRequests world =
        new ObservedRequests(SOURCE, BackupEnvironmentTest.withBackup(Json.object()));
    ObjectNode source = world.parent();
    ((ObjectNode) source.get("metadata")).put("creationTimestamp", "2025-01-01T00:00:00Z");
    source.putObject("status").putObject("backup").put("location", location(world.uid));
    return source;
  }

  private static String location(String uid) {
    return "s3://pg-backups/shop/orders/" + uid;
  }

  private static String uidOf(ObjectNode source) {
    return source.at("/metadata/uid").asText();
  }

  /** The store of {@code BackupEnvironmentTest.withBackup}, as a source store in the spec. */
  private static ObjectNode store() {
    return (ObjectNode) BackupEnvironmentTest.withBackup(Json.object()).at("/backup/s3");
  }

  private static ObservedRequests target(String name, Consumer<ObjectNode> spec) {
    ObjectNode given = Json.object();
    spec.accept(given);
    ObservedRequests world = new ObservedRequests(name, given);
    StandbyClusterTest.sourceSecrets(world);
    return world;
  }

  private static ObservedRequests standby() {
    return target(
        "orders-dr", spec -> spec.putObject("standby").put("cluster", SOURCE).set("s3", store()));
  }

  private static ObservedRequests logicalRestore() {
    return target(
        "orders-copy",
        spec ->
            spec.putObject("bootstrap")
                .putObject("logical")
                .put("cluster", SOURCE)
                .set("s3", store()));
  }

  private static ObservedRequests cloneWithStore() {
    return target(
        "orders-copy",
        spec ->
            spec.putObject("bootstrap")
                .putObject("clone")
                .put("cluster", SOURCE)
                .set("s3", store()));
  }

  private static String refusal(ObservedRequests world) {
    world.sync();
    assertThat(BackupAnswersTest.condition(world.status, "SpecValid"))
        .isEqualTo("False InvalidSpec");
    assertThat(world.children).as("nothing bootstraps from the wrong archive").isEmpty();
    return BackupAnswersTest.conditionMessage(world.status, "SpecValid");
  }

  @Test
  void aStandbyOfASourceCreatedByThisVersionIsRefusedNamingTheSourcesArchive() {
    ObjectNode source = sourceOfThisVersion();
    ObservedRequests standby = standby();
    standby.otherClusters.put(SOURCE, source);
    assertThat(refusal(standby))
        .startsWith(
            "spec.standby.s3.prefix: PostgresCluster orders archives into "
                + location(uidOf(source))
                + ", not s3://pg-backups/shop/orders: give the source's store with prefix: "
                + "shop/orders/"
                + uidOf(source));
  }

  @Test
  void aLogicalRestoreOrACloneThatNamesTheSourcesStoreWithoutPrefixIsRefusedTheSameWay() {
    ObjectNode source = sourceOfThisVersion();
    ObservedRequests logical = logicalRestore();
    logical.otherClusters.put(SOURCE, source);
    assertThat(refusal(logical))
        .startsWith(
            "spec.bootstrap.logical.s3.prefix: PostgresCluster orders archives into "
                + location(uidOf(source)))
        .contains("prefix: shop/orders/" + uidOf(source));

    ObservedRequests clone = cloneWithStore();
    clone.otherClusters.put(SOURCE, source);
    assertThat(refusal(clone))
        .startsWith(
            "spec.bootstrap.clone.s3.prefix: PostgresCluster orders archives into "
                + location(uidOf(source)))
        .contains("prefix: shop/orders/" + uidOf(source));
  }

  @Test
  void aSourceTheHookDoesNotSeeIsRefusedWithTheFormOfItsArchive() {
    for (ObservedRequests world :
        new ObservedRequests[] {standby(), logicalRestore(), cloneWithStore()}) {
      assertThat(refusal(world))
          .contains(
              "PostgresCluster orders is not in namespace shop",
              "shop/orders/<uid>",
              "s3://pg-backups/shop/orders/ holds one folder per incarnation");
    }
    // The source of a same-name restore is gone, whatever cluster of that name the hook sees:
    // itself.
    ObservedRequests sameName =
        target(
            SOURCE,
            spec -> {
              spec.setAll(BackupEnvironmentTest.withBackup(Json.object()));
              // Its own archive apart from where the default would look, so that only the source is
              // in question.
              ((ObjectNode) spec.at("/backup/s3")).put("prefix", "shop/orders-restored");
              spec.putObject("bootstrap").putObject("clone").put("cluster", SOURCE);
            });
    assertThat(refusal(sameName))
        .contains("spec.bootstrap.clone.s3: PostgresCluster orders is not in namespace");
  }

  @Test
  void theSourcesArchiveGivenAsPrefixIsFollowedAndStaysWhenTheSourceGoes() {
    ObjectNode source = sourceOfThisVersion();
    ObservedRequests standby = standby();
    ((ObjectNode) standby.spec.at("/standby/s3")).put("prefix", "shop/orders/" + uidOf(source));
    standby.otherClusters.put(SOURCE, source);
    standby.sync();
    assertThat(BackupAnswersTest.condition(standby.status, "SpecValid")).isEqualTo("True Valid");
    assertThat(
            StandbyClusterTest.env(standby.children.get("StatefulSet/orders-dr"))
                .get("STANDBY_WALE_S3_PREFIX")
                .asText())
        .isEqualTo(location(uidOf(source)));
    standby.runAllReady();
    standby.otherClusters.remove(SOURCE);
    standby.sync();
    assertThat(BackupAnswersTest.condition(standby.status, "SpecValid")).isEqualTo("True Valid");
  }

  @Test
  void aSourceOfTheLayoutBeforeIsFoundWhereTheDefaultLooks() {
    ObjectNode source = BackupAnswersTest.sourceOfOld();
    ObservedRequests standby = standby();
    standby.otherClusters.put(SOURCE, source);
    standby.sync();
    assertThat(BackupAnswersTest.condition(standby.status, "SpecValid")).isEqualTo("True Valid");
    assertThat(
            StandbyClusterTest.env(standby.children.get("StatefulSet/orders-dr"))
                .get("STANDBY_WALE_S3_PREFIX")
                .asText())
        .isEqualTo("s3://pg-backups/shop/orders");
  }
}
