package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testing.kube.KubeSchema;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** spec.storage.wal: the second claim template and mount, the Patroni settings, and the changes that are refused. */
class WalVolumeTest {
  static ObjectNode docsExample() throws IOException {
    String block = MarkdownBlocks.first("docs/postgrescluster/spec.md", "WAL volume", "yaml");
    assertThat(block).startsWith("spec:\n");
    return (ObjectNode) new YAMLMapper().readTree(block).get("spec");
  }

  @Test
  void theDocsExampleRendersASecondClaimTemplateItsMountAndTheWalDirectorySettings()
      throws IOException {
    ObjectNode example = docsExample();
    ClusterSpec spec = BuilderTestSupport.spec(s -> s.setAll(example.deepCopy()));
    ObjectNode sts = BuilderTestSupport.statefulSet("pg", spec);
    KubeSchema.assertValid(sts);
    JsonNode claims = sts.at("/spec/volumeClaimTemplates");
    assertThat(claims).hasSize(2);
    assertThat(claims.get(1))
        .isEqualTo(
            json(
                "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\","
                    + "\"metadata\":{\"name\":\"pgwal\",\"labels\":{"
                    + "\"app.kubernetes.io/instance\":\"pg\",\"app.kubernetes.io/name\":\"postgresql\"}},\"spec\":{\"accessModes\":"
                    + "[\"ReadWriteOnce\"],\"storageClassName\":\"fast-ssd\",\"resources\":{\"requests\":{\"storage\":\"10Gi\"}},"
                    + "\"volumeMode\":\"Filesystem\"},\"status\":{\"phase\":\"Pending\"}}"));
    assertThat(claims.get(0).at("/spec/resources/requests/storage").asText()).isEqualTo("50Gi");
    assertThat(claims.get(0).at("/spec").has("storageClassName")).isFalse();
    assertThat(sts.at("/spec/template/spec/containers/0/volumeMounts"))
        .contains(json("{\"name\":\"pgwal\",\"mountPath\":\"/home/postgres/pgwal\"}"));
    JsonNode config = BuilderTestSupport.spiloConfiguration(sts);
    assertThat(config.at("/bootstrap/initdb"))
        .isEqualTo(
            json(
                "[{\"encoding\":\"UTF8\"},"
                    + "{\"locale\":\"en_US.UTF-8\"},\"data-checksums\",{\"waldir\":\"/home/postgres/pgwal/pg_wal\"}]"));
    assertThat(config.at("/postgresql/create_replica_method")).isEqualTo(json("[\"basebackup\"]"));
    assertThat(config.at("/postgresql/basebackup"))
        .isEqualTo(
            json("[{\"waldir\":\"/home/postgres/pgwal/pg_wal\"},{\"checkpoint\":\"fast\"}]"));
    assertThat(config.path("restapi").isObject())
        .as("the rest of the configuration stays")
        .isTrue();
  }

  @Test
  void withoutAWalVolumeSpilosOwnMethodsAndInitdbStay() {
    ObjectNode sts = BuilderTestSupport.statefulSet("pg", BuilderTestSupport.spec(s -> {}));
    assertThat(sts.at("/spec/volumeClaimTemplates")).hasSize(1);
    JsonNode config = BuilderTestSupport.spiloConfiguration(sts);
    assertThat(config.at("/bootstrap/initdb").isMissingNode()).isTrue();
    assertThat(config.at("/postgresql/create_replica_method").isMissingNode()).isTrue();
    assertThat(sts.toString()).doesNotContain(Spilo.WAL_PATH);
  }

  @Test
  void theDocsExampleFitsTheCrdSchemaAndBadValuesAreNamed() throws IOException {
    ObjectNode parent =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    parent.putObject("metadata").put("name", "orders").put("namespace", "shop");
    parent.set("spec", docsExample());
    CrdSchema crd =
        CrdSchema.of(
            PostgresManifestsTest.yaml("manifests/crds/postgresclusters.metahooks.dev.yaml"),
            "v1alpha1");
    assertThat(crd.validate(parent)).isEmpty();

    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s ->
                        s.putObject("storage")
                            .putObject("wal")
                            .put("size", "0")
                            .put("storageClassName", "Fast_SSD")
                            .put("iops", 3000))))
        .containsExactlyInAnyOrder(
            "spec.storage.wal.iops", "spec.storage.wal.size", "spec.storage.wal.storageClassName");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(s -> s.putObject("storage").putObject("wal"))))
        .containsExactly("spec.storage.wal.size");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(
                    s -> {
                      s.putObject("storage").putObject("wal").put("size", "1Gi");
                      s.putObject("bootstrap")
                          .putObject("clone")
                          .put("cluster", "old")
                          .putObject("s3")
                          .put("bucket", "b")
                          .put("prefix", "p")
                          .putObject("credentials")
                          .put("secretName", "s3");
                    })))
        .contains("spec.storage.wal");
  }

  @Test
  void addingRemovingResizingOrReclassingItOnAClusterThatExistsIsRefusedAndMovesNothing() {
    ObservedRequests plain = TlsWorlds.running();
    assertRefused(
        plain,
        "spec.storage.wal",
        spec -> spec.putObject("storage").putObject("wal").put("size", "1Gi"),
        "cannot be added once the cluster exists");

    ObservedRequests withWal = new ObservedRequests("orders", Json.object().put("instances", 2));
    withWal.edit(spec -> spec.putObject("storage").putObject("wal").put("size", "1Gi"));
    withWal.sync();
    withWal.runAllReady();
    withWal.sync();
    assertThat(
            withWal
                .children
                .get("StatefulSet/orders")
                .at("/spec/volumeClaimTemplates/1/metadata/name")
                .asText())
        .isEqualTo(Spilo.WAL_VOLUME);
    assertRefused(
        withWal,
        "spec.storage.wal",
        spec -> spec.withObjectProperty("storage").remove("wal"),
        "cannot be removed once the cluster exists");
    assertRefused(
        withWal,
        "spec.storage.wal.size",
        spec -> spec.withObjectProperty("storage").withObjectProperty("wal").put("size", "2Gi"),
        "cannot change from 1Gi to 2Gi");
    assertRefused(
        withWal,
        "spec.storage.wal.storageClassName",
        spec ->
            spec.withObjectProperty("storage")
                .withObjectProperty("wal")
                .put("storageClassName", "fast"),
        "cannot change from (cluster default) to fast");
    withWal.edit(
        spec -> spec.withObjectProperty("storage").withObjectProperty("wal").put("size", "1024Mi"));
    assertThat(TlsWorlds.condition(withWal.sync(), "SpecValid").path("status").asText())
        .as("the same size written otherwise")
        .isEqualTo("True");
  }

  private static void assertRefused(
      ObservedRequests world,
      String field,
      java.util.function.Consumer<ObjectNode> change,
      String message) {
    ObjectNode before = world.spec.deepCopy();
    Map<String, JsonNode> children = new TreeMap<>(world.children);
    world.edit(change);
    JsonNode answer = world.sync();
    JsonNode condition = TlsWorlds.condition(answer, "SpecValid");
    assertThat(condition.path("status").asText()).isEqualTo("False");
    assertThat(condition.path("message").asText()).startsWith(field + ": " + message);
    assertThat(world.children).as("every child as it was").isEqualTo(children);
    world.edit(
        spec -> {
          spec.removeAll();
          spec.setAll(before);
        });
    world.sync();
  }
}
