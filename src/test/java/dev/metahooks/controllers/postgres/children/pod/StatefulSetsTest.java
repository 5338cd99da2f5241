package dev.metahooks.controllers.postgres.children.pod;

import static dev.metahooks.controllers.postgres.BuilderTestSupport.spec;
import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.BuilderTestSupport;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.base.Spilo;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.SpecReader;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

public class StatefulSetsTest {
  /**
   * Every variable the Spilo container gets: each is documented in zalando/spilo ENVIRONMENT.rst (or is one of
   * the downward-API basics Spilo reads); docs/postgrescluster/internals.md gives the documented meaning of each.
   */
  static final List<String> DOCUMENTED =
      List.of(
          "SCOPE",
          "PGVERSION",
          "PGROOT",
          "DCS_ENABLE_KUBERNETES_API",
          "KUBERNETES_USE_CONFIGMAPS",
          "KUBERNETES_SCOPE_LABEL",
          "KUBERNETES_ROLE_LABEL",
          "KUBERNETES_LABELS",
          "PGUSER_SUPERUSER",
          "PGPASSWORD_SUPERUSER",
          "PGUSER_STANDBY",
          "PGPASSWORD_STANDBY",
          "POD_IP",
          "POD_NAMESPACE",
          "SPILO_CONFIGURATION",
          "KUBERNETES_LEADER_LABEL_VALUE",
          "KUBERNETES_STANDBY_LEADER_LABEL_VALUE",
          // Not read by Spilo: the value SPILO_CONFIGURATION refers to, expanded by the kubelet.
          StatefulSets.RESTAPI_PASSWORD_VARIABLE);

  static JsonNode container(ObjectNode sts) {
    return sts.path("spec").path("template").path("spec").path("containers").get(0);
  }

  public static List<String> envNames(ObjectNode sts) {
    List<String> names = new ArrayList<>();
    container(sts).path("env").forEach(e -> names.add(e.path("name").asText()));
    return names;
  }

  @Test
  void spiloOnTheKubernetesApiWithTheDesignedNamesAndLabels() {
    ObjectNode sts = BuilderTestSupport.statefulSet("orders", spec(s -> s.put("instances", 3)));
    KubeSchema.assertValid(sts);
    assertThat(sts.at("/metadata/name").asText()).isEqualTo("orders");
    assertThat(sts.at("/spec/serviceName").asText()).isEqualTo("orders-hl");
    assertThat(sts.at("/spec/replicas").asInt()).isEqualTo(3);
    assertThat(sts.at("/spec/template/metadata/labels/cluster-name").asText()).isEqualTo("orders");
    assertThat(sts.at("/spec/template/spec/serviceAccountName").asText())
        .isEqualTo("orders-patroni");
    assertThat(sts.at("/metadata/labels"))
        .isEqualTo(
            json(
                "{\"app.kubernetes.io/name\":\"postgresql\","
                    + "\"app.kubernetes.io/instance\":\"orders\",\"app.kubernetes.io/managed-by\":\"metahooks\","
                    + "\"app.kubernetes.io/component\":\"database\",\"cluster-name\":\"orders\"}"));
    JsonNode env = container(sts).path("env");
    assertThat(env.get(0)).isEqualTo(json("{\"name\":\"SCOPE\",\"value\":\"orders\"}"));
    assertThat(env)
        .contains(json("{\"name\":\"KUBERNETES_ROLE_LABEL\",\"value\":\"spilo-role\"}"))
        .contains(json("{\"name\":\"KUBERNETES_SCOPE_LABEL\",\"value\":\"cluster-name\"}"))
        .contains(json("{\"name\":\"DCS_ENABLE_KUBERNETES_API\",\"value\":\"true\"}"));
  }

  @Test
  void onlyDocumentedVariables() {
    ObjectNode plain = BuilderTestSupport.statefulSet("pg", spec(s -> {}));
    ObjectNode tuned =
        BuilderTestSupport.statefulSet(
            "pg",
            spec(s -> s.putObject("postgresql").putObject("parameters").put("work_mem", "8MB")));
    assertThat(DOCUMENTED).containsAll(envNames(plain)).containsAll(envNames(tuned));
    assertThat(envNames(plain))
        .endsWith(StatefulSets.RESTAPI_PASSWORD_VARIABLE, "SPILO_CONFIGURATION");
    assertThat(envNames(tuned))
        .endsWith(StatefulSets.RESTAPI_PASSWORD_VARIABLE, "SPILO_CONFIGURATION");
  }

  @Test
  void restartRequiringParametersGoToTheLocalAndTheBootstrapConfigurationReloadableOnesDoNot()
      throws Exception {
    String config =
        StatefulSets.spiloConfiguration(
            new java.util.TreeMap<>(
                java.util.Map.of(
                    "work_mem", "8MB", "max_connections", "50", "pg_stat_statements.max", "2000")),
            Json.object());
    JsonNode parsed = JsonTrees.MAPPER.readTree(config);
    assertThat(parsed.at("/postgresql/parameters"))
        .isEqualTo(json("{\"max_connections\":\"50\",\"pg_stat_statements.max\":\"2000\"}"));
    assertThat(parsed.at("/bootstrap/dcs/postgresql/parameters"))
        .isEqualTo(parsed.at("/postgresql/parameters"));
  }

  /**
   * The logging settings Spilo pins in Patroni's local configuration: only a local value wins over Spilo's, so
   * they go there (not into the bootstrap DCS configuration, which Spilo's local value would hide as well), and a
   * change of one changes the pod template: the pods roll and take it.
   */
  @Test
  void settingsSpiloPinsLocallyGoToTheLocalConfigurationAndRollThePods() throws Exception {
    JsonNode parsed =
        JsonTrees.MAPPER.readTree(
            StatefulSets.spiloConfiguration(
                new java.util.TreeMap<>(
                    java.util.Map.of(
                        "work_mem", "8MB", "log_rotation_age", "2h", "log_filename", "pg-%a.log")),
                Json.object()));
    assertThat(parsed.at("/postgresql/parameters"))
        .isEqualTo(json("{\"log_filename\":\"pg-%a.log\",\"log_rotation_age\":\"2h\"}"));
    assertThat(parsed.has("bootstrap")).isFalse();

    ObservedRequests world =
        new ObservedRequests("orders", (ObjectNode) Json.object().put("instances", 2));
    world.sync();
    world.runAllReady();
    world.sync();
    world.edit(
        spec -> spec.putObject("postgresql").putObject("parameters").put("log_rotation_age", "2h"));
    JsonNode answer = world.sync();
    assertThat(answer.at("/status/rollout/step").asText())
        .as("a new pod template")
        .isEqualTo("Starting");
  }

  @Test
  void versionImageAndResourcesComeFromTheSpec() {
    ObjectNode sts =
        BuilderTestSupport.statefulSet(
            "pg",
            spec(
                s -> {
                  s.put("postgresVersion", 15).put("image", "mirror.local/spilo:15");
                  s.putObject("resources").putObject("limits").put("memory", "2Gi");
                }));
    assertThat(container(sts).path("image").asText()).isEqualTo("mirror.local/spilo:15");
    assertThat(container(sts).path("env"))
        .contains(json("{\"name\":\"PGVERSION\",\"value\":\"15\"}"));
    assertThat(container(sts).path("resources"))
        .isEqualTo(json("{\"limits\":{\"memory\":\"2Gi\"}}"));
  }

  @Test
  void volumesFollowTheRetentionPolicyButHibernationAlwaysKeepsThem() {
    ObjectNode scaled =
        BuilderTestSupport.statefulSet(
            "pg",
            spec(
                s ->
                    s.put("instances", 2)
                        .putObject("storage")
                        .putObject("retentionPolicy")
                        .put("whenScaled", "Delete")
                        .put("whenDeleted", "Delete")));
    assertThat(scaled.at("/spec/persistentVolumeClaimRetentionPolicy"))
        .isEqualTo(json("{\"whenDeleted\":\"Delete\",\"whenScaled\":\"Delete\"}"));
    ObjectNode hibernated =
        BuilderTestSupport.statefulSet(
            "pg",
            spec(
                s ->
                    s.put("instances", 0)
                        .putObject("storage")
                        .putObject("retentionPolicy")
                        .put("whenScaled", "Delete")));
    assertThat(hibernated.at("/spec/persistentVolumeClaimRetentionPolicy/whenScaled").asText())
        .isEqualTo("Retain");
    assertThat(hibernated.at("/spec/replicas").asInt()).isZero();
  }

  @Test
  void claimTemplateCarriesSizeAndOptionalClass() {
    ObjectNode noClass =
        BuilderTestSupport.statefulSet("pg", spec(s -> s.putObject("storage").put("size", "5Gi")));
    assertThat(noClass.at("/spec/volumeClaimTemplates/0/spec"))
        .isEqualTo(
            json(
                "{\"accessModes\":[\"ReadWriteOnce\"],\"resources\":{\"requests\":{\"storage\":\"5Gi\"}},"
                    + "\"volumeMode\":\"Filesystem\"}"));
    ObjectNode withClass =
        BuilderTestSupport.statefulSet(
            "pg", spec(s -> s.putObject("storage").put("storageClassName", "fast")));
    assertThat(withClass.at("/spec/volumeClaimTemplates/0/spec/storageClassName").asText())
        .isEqualTo("fast");
  }

  @Test
  void antiAffinityVariants() {
    ClusterSpec.Availability preferred = new ClusterSpec.Availability("preferred", "zone", true);
    assertThat(
            StatefulSets.affinity("pg", preferred)
                .orElseThrow()
                .at(
                    "/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/0/podAffinityTerm/topologyKey")
                .asText())
        .isEqualTo("zone");
    ClusterSpec.Availability required =
        new ClusterSpec.Availability("required", "kubernetes.io/hostname", true);
    assertThat(
            StatefulSets.affinity("pg", required)
                .orElseThrow()
                .at(
                    "/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/0/labelSelector/matchLabels"))
        .isEqualTo(
            json(
                "{\"app.kubernetes.io/instance\":\"pg\",\"app.kubernetes.io/name\":\"postgresql\"}"));
    assertThat(StatefulSets.affinity("pg", new ClusterSpec.Availability("none", "zone", true)))
        .isEmpty();
  }

  @Test
  void patronisRestApiAsksForCredentialsFromTheRestApiSecret() throws Exception {
    ObjectNode sts = BuilderTestSupport.statefulSet("pg", spec(s -> {}));
    JsonNode env = container(sts).path("env");
    List<String> names = envNames(sts);
    int password = names.indexOf(StatefulSets.RESTAPI_PASSWORD_VARIABLE);
    assertThat(password)
        .as("declared before the variable that refers to it")
        .isLessThan(names.indexOf("SPILO_CONFIGURATION"));
    assertThat(env.get(password))
        .isEqualTo(
            json(
                "{\"name\":\""
                    + StatefulSets.RESTAPI_PASSWORD_VARIABLE
                    + "\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\"pg-restapi\",\"key\":\"password\"}}}"));
    JsonNode config =
        JsonTrees.MAPPER.readTree(
            env.get(names.indexOf("SPILO_CONFIGURATION")).path("value").asText());
    assertThat(config.path("restapi"))
        .isEqualTo(
            json(
                "{\"authentication\":{\"username\":\"patroni\","
                    + "\"password\":\"$("
                    + StatefulSets.RESTAPI_PASSWORD_VARIABLE
                    + ")\"}}"));
    assertThat(config.has("postgresql")).as("no parameters, none written").isFalse();
  }

  @Test
  void parameterValuesCannotReferToVariables() throws Exception {
    JsonNode config =
        JsonTrees.MAPPER.readTree(
            StatefulSets.spiloConfiguration(
                java.util.Map.of("cluster_name", "$(PGPASSWORD_SUPERUSER) costs $$5"),
                Json.object()));
    assertThat(config.at("/postgresql/parameters/cluster_name").asText())
        .isEqualTo("$$(PGPASSWORD_SUPERUSER) costs $$$$5");
  }

  @Test
  void preloadLibrariesAreAddedToSpilosNeverInTheirPlace() {
    assertThat(Spilo.preloadLibraries("pg_partman_bgw, pg_cron,auto_explain"))
        .isEqualTo(
            "bg_mon,pg_stat_statements,pgextwlist,pg_auth_mon,set_user,timescaledb,pg_cron,pg_stat_kcache,pg_partman_bgw,auto_explain");
  }

  @Test
  void podsPassPodSecurityRestrictedAndTheLeaderLabelIsExplicit() {
    ObjectNode sts = BuilderTestSupport.statefulSet("pg", spec(s -> {}));
    JsonNode pod = sts.at("/spec/template/spec");
    assertThat(pod.path("securityContext"))
        .isEqualTo(
            json(
                "{\"runAsNonRoot\":true,\"runAsUser\":101,"
                    + "\"runAsGroup\":103,\"fsGroup\":103,\"fsGroupChangePolicy\":\"OnRootMismatch\",\"seccompProfile\":{\"type\":\"RuntimeDefault\"}}"));
    assertThat(container(sts).path("securityContext"))
        .isEqualTo(
            json("{\"allowPrivilegeEscalation\":false,\"capabilities\":{\"drop\":[\"ALL\"]}}"));
    assertThat(container(sts).path("env"))
        .contains(json("{\"name\":\"KUBERNETES_LEADER_LABEL_VALUE\",\"value\":\"master\"}"));
    assertThat(container(sts).at("/resources/limits/memory").asText())
        .isEqualTo(SpecReader.DEFAULT_MEMORY_LIMIT);
  }
}
