package dev.metahooks.controllers.postgres;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.metahooks.controllers.postgres.base.ChildTypes;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.controllers.postgres.spec.SpecReaderTest;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The CRD, the samples and the CompositeController agree with each other and with the hooks. Full OpenAPI
 * validation of the samples belongs to a schema validator; this checks what the samples use is declared.
 */
class PostgresManifestsTest {
  static JsonNode yaml(String path) throws IOException {
    return new YAMLMapper().readTree(Resources.projectDir().resolve(path).toFile());
  }

  static JsonNode crdVersion() throws IOException {
    return yaml("manifests/crds/postgresclusters.metahooks.dev.yaml").at("/spec/versions/0");
  }

  static JsonNode specSchema() throws IOException {
    return crdVersion().at("/schema/openAPIV3Schema/properties/spec");
  }

  @Test
  void crdNamesSubresourcesAndPrinterColumns() throws IOException {
    JsonNode crd = yaml("manifests/crds/postgresclusters.metahooks.dev.yaml");
    assertThat(crd.at("/metadata/name").asText()).isEqualTo("postgresclusters.metahooks.dev");
    assertThat(crd.at("/spec/group").asText()).isEqualTo("metahooks.dev");
    assertThat(crd.at("/spec/scope").asText()).isEqualTo("Namespaced");
    assertThat(crd.at("/spec/names/kind").asText()).isEqualTo("PostgresCluster");
    assertThat(crd.at("/spec/names/plural").asText()).isEqualTo("postgresclusters");
    assertThat(crd.at("/spec/names/shortNames/0").asText()).isEqualTo("pgc");
    JsonNode version = crdVersion();
    assertThat(version.path("name").asText()).isEqualTo("v1alpha1");
    assertThat(version.at("/subresources/status").isObject()).isTrue();
    assertThat(version.at("/subresources/scale"))
        .isEqualTo(
            json(
                "{\"specReplicasPath\":\".spec.instances\","
                    + "\"statusReplicasPath\":\".status.readyInstances\",\"labelSelectorPath\":\".status.selector\"}"));
    List<String> columns = new ArrayList<>();
    version.path("additionalPrinterColumns").forEach(c -> columns.add(c.path("name").asText()));
    assertThat(columns).containsExactly("Version", "Instances", "Ready", "Phase", "Primary", "Age");
    // What runs, not what is asked for; and the Ready condition, not a count that looks fine
    // without a primary.
    assertThat(version.at("/additionalPrinterColumns/0/jsonPath").asText())
        .isEqualTo(".status.postgresVersion");
    assertThat(version.at("/additionalPrinterColumns/2/jsonPath").asText())
        .isEqualTo(".status.conditions[?(@.type==\"Ready\")].status");
  }

  @Test
  void crdHasExactlyTheFieldsTheHooksRead() throws IOException {
    assertThat(fieldNames(specSchema().path("properties")))
        .containsExactly(
            "postgresVersion",
            "image",
            "instances",
            "paused",
            "resources",
            "storage",
            "postgresql",
            "users",
            "databases",
            "availability",
            "services",
            "updates",
            "deletionProtection",
            "monitoring",
            "pooler",
            "backup",
            "bootstrap",
            "networkPolicy",
            "standby",
            "tls",
            "patroni",
            "scheduling");
    JsonNode p = specSchema().path("properties");
    assertThat(fieldNames(p.at("/standby/properties")))
        .containsExactly("cluster", "s3", "host", "port", "credentials");
    assertThat(fieldNames(p.at("/standby/properties/credentials/properties")))
        .containsExactly("superuserSecret", "replicationSecret");
    assertThat(fieldNames(p.at("/monitoring/properties"))).containsExactly("enabled", "image");
    assertThat(fieldNames(p.at("/pooler/properties")))
        .containsExactly(
            "enabled", "instances", "mode", "defaultPoolSize", "maxClientConnections", "image");
    // An absent pooler is off: a default object would turn it on.
    assertThat(p.path("pooler").has("default")).isFalse();
    assertThat(fieldNames(p.at("/networkPolicy/properties")))
        .containsExactly("enabled", "clients", "monitoring");
    assertThat(fieldNames(p.at("/networkPolicy/properties/clients/items/properties")))
        .containsExactly("podSelector", "namespaceSelector");
    assertThat(fieldNames(p.at("/tls/properties"))).containsExactly("secretName", "restApi");
    assertThat(fieldNames(p.at("/storage/properties")))
        .containsExactly("size", "storageClassName", "wal", "retentionPolicy");
    assertThat(fieldNames(p.at("/storage/properties/wal/properties")))
        .containsExactly("size", "storageClassName");
    assertThat(fieldNames(p.at("/storage/properties/retentionPolicy/properties")))
        .containsExactly("whenDeleted", "whenScaled");
    assertThat(fieldNames(p.at("/postgresql/properties"))).containsExactly("parameters");
    assertThat(fieldNames(p.at("/users/items/properties")))
        .containsExactly("name", "databases", "options", "connect");
    assertThat(fieldNames(p.at("/databases/items/properties")))
        .containsExactly("name", "owner", "extensions", "schemas", "reclaimPolicy");
    assertThat(fieldNames(p.at("/availability/properties")))
        .containsExactly("podAntiAffinity", "topologyKey", "podDisruptionBudget");
    assertThat(fieldNames(p.at("/services/properties"))).containsExactly("primary", "replicas");
    assertThat(fieldNames(p.at("/updates/properties")))
        .containsExactly("method", "maintenanceWindows", "maxLagBytes");
    assertThat(fieldNames(p.at("/updates/properties/maintenanceWindows/items/properties")))
        .containsExactly("days", "start", "end");
    assertThat(fieldNames(p.at("/patroni/properties")))
        .containsExactly("failsafeMode", "synchronous");
    assertThat(fieldNames(p.at("/patroni/properties/synchronous/properties")))
        .containsExactly("mode", "nodeCount");
    assertThat(fieldNames(p.at("/scheduling/properties")))
        .containsExactly("database", "pooler", "jobs");
    assertThat(fieldNames(p.at("/scheduling/properties/database/properties")))
        .containsExactly(
            "tolerations",
            "nodeAffinity",
            "topologySpreadConstraints",
            "priorityClassName",
            "podLabels",
            "podAnnotations");
  }

  @Test
  void crdDefaultsAreTheHooksDefaults() throws IOException {
    ObjectNode parent = SpecReaderTest.parent("pg", spec -> {});
    applyDefaults(specSchema(), parent.get("spec"));
    assertThat(parent.get("spec").size()).isEqualTo(12);
    assertThat(SpecReader.read(parent))
        .isEqualTo(SpecReader.read(SpecReaderTest.parent("pg", spec -> {})));
    assertThat(specSchema().at("/properties/image/default").asText())
        .isEqualTo(ClusterSpec.DEFAULT_IMAGE);
  }

  @Test
  void theDocsListEveryRefusedParameterAndSpilosPreloadLibraries() throws IOException {
    String docs = MarkdownBlocks.page("docs/postgrescluster/spec.md");
    SpecReader.RESERVED_PARAMETERS.forEach(name -> assertThat(docs).contains("`" + name + "`"));
    assertThat(docs)
        .contains("`" + String.join(",", Spilo.PRELOAD_LIBRARIES) + "`")
        .contains("`" + SpecReader.DEFAULT_MEMORY_LIMIT + "`")
        .contains("`" + SpecReader.MIN_MEMORY_LIMIT + "`");
  }

  @Test
  void crdRulesListTheSameReservedNamesAsTheHook() throws IOException {
    String crd = yaml("manifests/crds/postgresclusters.metahooks.dev.yaml").toString();
    SpecReader.RESERVED_USERS.forEach(name -> assertThat(crd).contains("'" + name + "'"));
    SpecReader.RESERVED_DATABASES.forEach(name -> assertThat(crd).contains("'" + name + "'"));
    SpecReader.RESERVED_PARAMETERS.forEach(name -> assertThat(crd).contains("'" + name + "'"));
    assertThat(
            specSchema().at("/properties/postgresVersion/x-kubernetes-validations/0/rule").asText())
        .isEqualTo("self >= oldSelf");
  }

  /** The docs' spec snippets (Maintenance windows, Availability) use declared fields and are valid specs. */
  @Test
  void theDocsSpecExamplesAreValid() throws IOException {
    int checked = 0;
    for (String block :
        MarkdownBlocks.blocks(MarkdownBlocks.pages("docs/postgrescluster"), "yaml")) {
      if (!block.startsWith("spec:\n")) {
        continue;
      }
      JsonNode example = new YAMLMapper().readTree(block);
      List<String> problems = new ArrayList<>();
      declared(specSchema(), example.get("spec"), "spec", problems);
      assertThat(problems).as(block).isEmpty();
      SpecReader.Result read =
          SpecReader.read(
              SpecReaderTest.parent(
                  "orders", spec -> spec.setAll((ObjectNode) example.get("spec"))));
      assertThat(read.problems()).as(block).isEmpty();
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(strings = {"postgrescluster-dev.yaml", "postgrescluster-ha.yaml"})
  void samplesUseOnlyDeclaredFieldsAndAreValid(String file) throws IOException {
    JsonNode sample = yaml("manifests/examples/" + file);
    assertThat(sample.path("apiVersion").asText()).isEqualTo("metahooks.dev/v1alpha1");
    assertThat(sample.path("kind").asText()).isEqualTo("PostgresCluster");
    List<String> problems = new ArrayList<>();
    declared(specSchema(), sample.get("spec"), "spec", problems);
    assertThat(problems).isEmpty();
    ObjectNode defaulted = (ObjectNode) sample.deepCopy();
    defaulted.withObjectProperty("metadata").put("namespace", "shop");
    applyDefaults(specSchema(), defaulted.get("spec"));
    assertThat(SpecReader.read(defaulted).problems()).isEmpty();
  }

  @Test
  void haSampleShowsUsersParametersAndThreeInstances() throws IOException {
    JsonNode spec = yaml("manifests/examples/postgrescluster-ha.yaml").get("spec");
    assertThat(spec.path("instances").asInt()).isEqualTo(3);
    assertThat(spec.path("users").size()).isGreaterThanOrEqualTo(2);
    assertThat(spec.at("/postgresql/parameters").size()).isGreaterThanOrEqualTo(2);
    assertThat(yaml("manifests/examples/postgrescluster-dev.yaml").at("/spec/instances").asInt())
        .isEqualTo(1);
  }

  @Test
  void compositeControllerDeclaresTheChildTypesStrategiesAndHooks() throws IOException {
    JsonNode cc = yaml("metacontroller/postgrescluster.yaml");
    assertThat(cc.at("/metadata/name").asText()).isEqualTo("postgrescluster");
    assertThat(cc.at("/spec/generateSelector").asBoolean()).isTrue();
    assertThat(cc.at("/spec/parentResource"))
        .isEqualTo(
            json("{\"apiVersion\":\"metahooks.dev/v1alpha1\",\"resource\":\"postgresclusters\"}"));
    Map<String, String> strategies = new LinkedHashMap<>();
    cc.at("/spec/childResources")
        .forEach(
            child ->
                strategies.put(
                    child.path("apiVersion").asText() + " " + child.path("resource").asText(),
                    child.at("/updateStrategy/method").asText()));
    assertThat(strategies)
        .containsExactly(
            Map.entry("v1 serviceaccounts", "InPlace"),
            Map.entry("rbac.authorization.k8s.io/v1 roles", "InPlace"),
            Map.entry("rbac.authorization.k8s.io/v1 rolebindings", "InPlace"),
            Map.entry("v1 secrets", "InPlace"),
            Map.entry("v1 services", "InPlace"),
            Map.entry("apps/v1 statefulsets", "InPlace"),
            Map.entry("policy/v1 poddisruptionbudgets", "InPlace"),
            Map.entry("networking.k8s.io/v1 networkpolicies", "InPlace"),
            Map.entry("batch/v1 jobs", "OnDelete"),
            Map.entry("v1 configmaps", "InPlace"),
            Map.entry("apps/v1 deployments", "InPlace"),
            Map.entry("batch/v1 cronjobs", "InPlace"));
    List<String> declared = new ArrayList<>();
    ChildTypes.ALL.forEach(
        t ->
            declared.add(
                t.apiVersion() + " " + t.kind().toLowerCase().replaceFirst("y$", "ie") + "s"));
    assertThat(declared).containsExactlyElementsOf(strategies.keySet());
    for (String hook : List.of("sync", "finalize", "customize")) {
      assertThat(cc.at("/spec/hooks/" + hook + "/webhook/url").asText())
          .isEqualTo("http://metahooks.metahooks/postgrescluster/" + hook);
    }
    assertThat(cc.at("/spec/resyncPeriodSeconds").asInt()).isPositive();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** Structural defaulting as the API server does it: a default fills an absent field, then its fields. */
  static void applyDefaults(JsonNode schema, JsonNode value) {
    if (!value.isObject()) {
      return;
    }
    schema
        .path("properties")
        .properties()
        .forEach(
            property -> {
              JsonNode sub = property.getValue();
              if (!value.has(property.getKey()) && sub.has("default")) {
                ((ObjectNode) value).set(property.getKey(), sub.get("default").deepCopy());
              }
              if (value.has(property.getKey())) {
                applyDefaults(sub, value.get(property.getKey()));
              }
            });
  }

  /** Every field of the value is declared, enums and bounds hold. */
  static void declared(JsonNode schema, JsonNode value, String path, List<String> problems) {
    if (schema.has("enum")) {
      boolean listed = false;
      for (JsonNode allowed : schema.get("enum")) {
        listed |= allowed.equals(value);
      }
      if (!listed) {
        problems.add(path + " is not one of " + schema.get("enum"));
      }
    }
    if (schema.has("minimum") && value.asDouble() < schema.get("minimum").asDouble()
        || schema.has("maximum") && value.asDouble() > schema.get("maximum").asDouble()) {
      problems.add(path + " is out of bounds");
    }
    if (value.isObject()) {
      value
          .properties()
          .forEach(
              field -> {
                JsonNode sub = schema.path("properties").get(field.getKey());
                if (sub == null) {
                  sub = schema.get("additionalProperties");
                }
                if (sub == null) {
                  problems.add(path + "." + field.getKey() + " is not declared");
                } else {
                  declared(sub, field.getValue(), path + "." + field.getKey(), problems);
                }
              });
    } else if (value.isArray()) {
      for (int i = 0; i < value.size(); i++) {
        declared(schema.path("items"), value.get(i), path + "[" + i + "]", problems);
      }
    }
  }
}
