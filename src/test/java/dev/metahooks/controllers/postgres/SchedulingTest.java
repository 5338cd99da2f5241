package dev.metahooks.controllers.postgres;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.controllers.postgres.children.jobs.Cleanup;
import dev.metahooks.controllers.postgres.children.pooler.Poolers;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.PodMetadataReader;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testing.kube.KubeSchema;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** spec.scheduling: read and checked as the API server would, rendered into the database, pooler and Job pods. */
class SchedulingTest {
  /** The spec of the docs' Scheduling example. */
  static ObjectNode docsExample() throws IOException {
    String block = MarkdownBlocks.first("docs/postgrescluster/spec.md", "Scheduling", "yaml");
    assertThat(block).startsWith("spec:\n");
    return (ObjectNode) new YAMLMapper().readTree(block).get("spec");
  }

  private static ClusterSpec example() throws IOException {
    ObjectNode example = docsExample();
    return spec(s -> s.setAll(example.deepCopy()));
  }

  @Test
  void theDocsExampleRendersIntoTheDatabasePodsThePoolerAndEveryJob() throws IOException {
    ClusterSpec spec = example();
    ObjectNode sts = BuilderTestSupport.statefulSet("pg", spec);
    KubeSchema.assertValid(sts);
    JsonNode template = sts.at("/spec/template");
    assertThat(template.at("/metadata/labels/team").asText()).isEqualTo("payments");
    Labels.pod("pg")
        .properties()
        .forEach(
            label ->
                assertThat(template.at("/metadata/labels").path(label.getKey()))
                    .as("the operator's labels stay")
                    .isEqualTo(label.getValue()));
    assertThat(template.at("/metadata/annotations"))
        .isEqualTo(json("{\"cluster-autoscaler.kubernetes.io/safe-to-evict\":\"false\"}"));
    JsonNode pod = template.path("spec");
    assertThat(pod.path("priorityClassName").asText()).isEqualTo("database-critical");
    assertThat(pod.path("tolerations"))
        .isEqualTo(
            json(
                "[{\"key\":\"dedicated\",\"operator\":\"Equal\",\"value\":\"postgres\",\"effect\":\"NoSchedule\"}]"));
    assertThat(pod.at("/affinity/podAntiAffinity").isObject())
        .as("availability's anti-affinity is kept")
        .isTrue();
    assertThat(
            pod.at(
                "/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0"
                    + "/matchExpressions/0/values"))
        .isEqualTo(json("[\"m6i.xlarge\",\"m6i.2xlarge\"]"));
    assertThat(pod.path("topologySpreadConstraints"))
        .isEqualTo(
            json(
                "[{\"maxSkew\":1,\"topologyKey\":"
                    + "\"topology.kubernetes.io/zone\",\"whenUnsatisfiable\":\"ScheduleAnyway\",\"labelSelector\":{\"matchLabels\":"
                    + "{\"app.kubernetes.io/instance\":\"pg\",\"app.kubernetes.io/name\":\"postgresql\"}}}]"));
    assertThat(sts.at("/spec/selector/matchLabels")).isEqualTo(Labels.podSelector("pg"));

    ObjectNode deployment =
        Poolers.build("pg", "shop", spec, Optional.empty()).stream()
            .filter(child -> child.path("kind").asText().equals("Deployment"))
            .findFirst()
            .orElseThrow();
    KubeSchema.assertValid(deployment);
    JsonNode poolerPod = deployment.at("/spec/template/spec");
    assertThat(poolerPod.at("/topologySpreadConstraints/0/labelSelector/matchLabels"))
        .isEqualTo(
            json(
                "{\"app.kubernetes.io/name\":\"pgbouncer\",\"app.kubernetes.io/instance\":\"pg\"}"));
    assertThat(poolerPod.has("tolerations")).as("the database block is not the pooler's").isFalse();
    assertThat(deployment.at("/spec/template/metadata/annotations").has(Poolers.CONFIG_HASH))
        .isTrue();

    ObjectNode cleanup =
        Cleanup.job("pg", spec.image(), spec.scheduling().jobs(), List.of("pg-config"));
    KubeSchema.assertValid(cleanup);
    assertThat(cleanup.at("/spec/template/spec/tolerations/0/key").asText()).isEqualTo("dedicated");
    assertThat(cleanup.at("/spec/template/metadata/labels/team").asText()).isEqualTo("payments");
    assertThat(cleanup.at("/spec/template/spec").has("priorityClassName")).isFalse();
  }

  @Test
  void withoutSchedulingNothingChanges() {
    ClusterSpec plain = spec(s -> {});
    ClusterSpec empty = spec(s -> s.putObject("scheduling").putObject("database"));
    assertThat(BuilderTestSupport.statefulSet("pg", empty))
        .isEqualTo(BuilderTestSupport.statefulSet("pg", plain));
    assertThat(
            Poolers.build(
                "pg",
                "shop",
                spec(s -> s.putObject("pooler").put("enabled", true)),
                Optional.empty()))
        .isEqualTo(
            Poolers.build(
                "pg",
                "shop",
                spec(
                    s -> {
                      s.putObject("pooler").put("enabled", true);
                      s.putObject("scheduling")
                          .putObject("jobs")
                          .putObject("podLabels")
                          .put("team", "payments");
                    }),
                Optional.empty()));
  }

  @Test
  void theDocsExampleFitsTheCrdSchema() throws IOException {
    ObjectNode parent =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    parent.putObject("metadata").put("name", "orders").put("namespace", "shop");
    parent.set("spec", docsExample());
    assertThat(crd().validate(parent)).isEmpty();
  }

  @Test
  void theCrdSchemaRefusesWhatItsTypesCannotHold() throws IOException {
    ObjectNode parent =
        Json.object().put("apiVersion", "metahooks.dev/v1alpha1").put("kind", "PostgresCluster");
    parent.putObject("metadata").put("name", "orders").put("namespace", "shop");
    ObjectNode database = parent.putObject("spec").putObject("scheduling").putObject("database");
    database.putArray("tolerations").addObject().put("key", "a").put("effect", "Sometimes");
    database.putArray("topologySpreadConstraints").addObject().put("maxSkew", 1);
    database.putObject("podLabels").put("team", 7);
    assertThat(crd().validate(parent))
        .hasSize(4)
        .anyMatch(error -> error.contains("effect"))
        .anyMatch(error -> error.contains("topologyKey"))
        .anyMatch(error -> error.contains("whenUnsatisfiable"))
        .anyMatch(error -> error.contains("team"));
  }

  private static CrdSchema crd() throws IOException {
    return CrdSchema.of(
        PostgresManifestsTest.yaml("manifests/crds/postgresclusters.metahooks.dev.yaml"),
        "v1alpha1");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "app.kubernetes.io/name",
        "app.kubernetes.io/instance",
        "app.kubernetes.io/component",
        "app.kubernetes.io/managed-by",
        "cluster-name",
        "spilo-role",
        "job-name",
        "controller-revision-hash",
        "statefulset.kubernetes.io/pod-name",
        "batch.kubernetes.io/job-name"
      })
  void aLabelTheOperatorOrKubernetesSelectsByIsRefusedNamingTheField(String key) {
    for (String block : List.of("database", "pooler", "jobs")) {
      SpecReader.Result result =
          SpecReaderTest.read(
              s ->
                  s.putObject("scheduling")
                      .putObject(block)
                      .putObject("podLabels")
                      .put(key, "mine"));
      assertThat(result.problems())
          .singleElement()
          .satisfies(
              problem -> {
                assertThat(problem.field())
                    .isEqualTo("spec.scheduling." + block + ".podLabels['" + key + "']");
                assertThat(problem.message()).contains("cannot be set or overridden");
              });
    }
  }

  @Test
  void theCrdRuleRefusesTheSameLabelsAsTheHook() throws IOException {
    JsonNode scheduling =
        PostgresManifestsTest.specSchema().at("/properties/scheduling/properties");
    for (String block : List.of("database", "pooler", "jobs")) {
      String rule =
          scheduling
              .at("/" + block + "/properties/podLabels/x-kubernetes-validations/0/rule")
              .asText();
      PodMetadataReader.RESERVED_LABELS.forEach(key -> assertThat(rule).contains("'" + key + "'"));
      PodMetadataReader.RESERVED_LABEL_PREFIXES.forEach(
          prefix -> assertThat(rule).contains("'" + prefix + "'"));
      assertThat(scheduling.get(block).path("properties"))
          .as("every block has the same schema")
          .isEqualTo(scheduling.get("database").path("properties"));
    }
  }

  @Test
  void badShapesAreNamedAsTheApiServerWouldRefuseThem() {
    assertThat(
            problems(
                database -> {
                  database
                      .putArray("tolerations")
                      .add(Json.object().put("operator", "Equal").put("value", "x"))
                      .add(
                          Json.object().put("key", "a").put("operator", "Exists").put("value", "x"))
                      .add(
                          Json.object()
                              .put("key", "a")
                              .put("effect", "NoSchedule")
                              .put("tolerationSeconds", 30))
                      .add(Json.object().put("key", "a").put("effect", "Sometimes"))
                      .add(Json.object().put("key", "a b"))
                      .add(Json.object().put("key", "a").put("tolerate", true));
                }))
        .containsExactly(
            "spec.scheduling.database.tolerations[0].operator",
            "spec.scheduling.database.tolerations[1].value",
            "spec.scheduling.database.tolerations[2].tolerationSeconds",
            "spec.scheduling.database.tolerations[3].effect",
            "spec.scheduling.database.tolerations[4].key",
            "spec.scheduling.database.tolerations[5].tolerate");

    assertThat(
            problems(
                database -> {
                  ObjectNode affinity = database.putObject("nodeAffinity");
                  ObjectNode terms =
                      affinity.putObject("requiredDuringSchedulingIgnoredDuringExecution");
                  terms
                      .putArray("nodeSelectorTerms")
                      .addObject()
                      .putArray("matchExpressions")
                      .add(Json.object().put("key", "zone").put("operator", "In"))
                      .add(
                          Json.object()
                              .put("key", "zone")
                              .put("operator", "Exists")
                              .set("values", JsonTrees.MAPPER.createArrayNode().add("a")))
                      .add(
                          Json.object()
                              .put("key", "cpus")
                              .put("operator", "Gt")
                              .set("values", JsonTrees.MAPPER.createArrayNode().add("many")))
                      .add(
                          Json.object()
                              .put("key", "zone")
                              .put("operator", "Near")
                              .set("values", JsonTrees.MAPPER.createArrayNode().add("a")));
                  terms.withArray("nodeSelectorTerms").addObject();
                  terms
                      .withArray("nodeSelectorTerms")
                      .addObject()
                      .putArray("matchFields")
                      .add(
                          Json.object()
                              .put("key", "metadata.labels")
                              .put("operator", "In")
                              .set("values", JsonTrees.MAPPER.createArrayNode().add("n1")));
                  affinity
                      .putArray("preferredDuringSchedulingIgnoredDuringExecution")
                      .addObject()
                      .put("weight", 0)
                      .putObject("preference")
                      .putArray("matchExpressions")
                      .addObject()
                      .put("key", "ssd")
                      .put("operator", "Exists");
                }))
        .containsExactly(
            "spec.scheduling.database.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values",
            "spec.scheduling.database.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[1].values",
            "spec.scheduling.database.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[2].values",
            "spec.scheduling.database.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[3].operator",
            "spec.scheduling.database.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1]",
            "spec.scheduling.database.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[2].matchFields[0].key",
            "spec.scheduling.database.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight");

    assertThat(
            problems(
                database ->
                    database
                        .putArray("topologySpreadConstraints")
                        .add(
                            Json.object()
                                .put("maxSkew", 0)
                                .put("topologyKey", "region")
                                .put("whenUnsatisfiable", "DoNotSchedule"))
                        .add(
                            Json.object()
                                .put("maxSkew", 1)
                                .put("topologyKey", "zone")
                                .put("whenUnsatisfiable", "DoNotSchedule"))
                        .add(
                            Json.object()
                                .put("maxSkew", 1)
                                .put("topologyKey", "zone")
                                .put("whenUnsatisfiable", "DoNotSchedule"))
                        .add(
                            Json.object()
                                .put("maxSkew", 1)
                                .put("topologyKey", "host")
                                .put("whenUnsatisfiable", "ScheduleAnyway")
                                .put("minDomains", 2))
                        .add(
                            Json.object()
                                .put("topologyKey", "rack")
                                .put("whenUnsatisfiable", "ScheduleAnyway"))
                        .add(
                            Json.object()
                                .put("maxSkew", 1)
                                .put("topologyKey", "node")
                                .put("whenUnsatisfiable", "ScheduleAnyway")
                                .set(
                                    "matchLabelKeys",
                                    JsonTrees.MAPPER
                                        .createArrayNode()
                                        .add("app.kubernetes.io/instance")))))
        .containsExactly(
            "spec.scheduling.database.topologySpreadConstraints[0].maxSkew",
            "spec.scheduling.database.topologySpreadConstraints[2].topologyKey",
            "spec.scheduling.database.topologySpreadConstraints[3].minDomains",
            "spec.scheduling.database.topologySpreadConstraints[4].maxSkew",
            "spec.scheduling.database.topologySpreadConstraints[5].matchLabelKeys[0]");

    assertThat(
            problems(
                database ->
                    database
                        .put("priorityClassName", "system-node-critical")
                        .put("color", "blue")
                        .putObject("podAnnotations")
                        .put("metahooks.dev/pooler-config-hash", "x")))
        .containsExactlyInAnyOrder(
            "spec.scheduling.database.color",
            "spec.scheduling.database.priorityClassName",
            "spec.scheduling.database.podAnnotations['metahooks.dev/pooler-config-hash']");
    assertThat(problems(database -> database.put("priorityClassName", "Not_A_Name")))
        .containsExactly("spec.scheduling.database.priorityClassName");
    assertThat(
            SpecReaderTest.fields(
                SpecReaderTest.read(s -> s.putObject("scheduling").putObject("backups"))))
        .containsExactly("spec.scheduling.backups");
  }

  private static List<String> problems(Consumer<ObjectNode> database) {
    return SpecReaderTest.fields(
        SpecReaderTest.read(s -> database.accept(s.putObject("scheduling").putObject("database"))));
  }
}
