package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.ErrorCode;
import dev.metahooks.testing.kube.KubeSchema;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.MissingComponent;
import dev.metahooks.testsupport.PromQl;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.ThirdPartyCrds;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The optional component manifests/components/hook-server-monitoring and the Helm value monitoring.enabled: a
 * PodMonitor that scrapes the server's pods, a PrometheusRule whose alerts Prometheus' own tool accepts, and a Grafana
 * dashboard, each fitting its schema, and every metric they read exported by a fresh server.
 */
class HookServerMonitoringIT {
  private static final Set<String> KINDS = Set.of("PodMonitor", "PrometheusRule", "ConfigMap");
  private static List<JsonNode> withComponent;
  private static String freshMetrics;

  @BeforeAll
  static void render() throws Exception {
    withComponent = Rendered.withComponent("manifests", "hook-server-monitoring");
    try (HookServer server =
        new HookServer(ServerConfig.defaults().withPort(0), Catalog.controllers()).start()) {
      freshMetrics =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://localhost:" + server.port() + "/metrics"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString())
              .body();
    }
  }

  private static List<JsonNode> added(List<JsonNode> objects) {
    return objects.stream().filter(o -> KINDS.contains(o.path("kind").asText())).toList();
  }

  private static JsonNode only(String kind) {
    return added(withComponent).stream()
        .filter(o -> o.path("kind").asText().equals(kind))
        .findFirst()
        .orElseThrow();
  }

  private static JsonNode dashboard() throws IOException {
    return JsonTrees.MAPPER.readTree(
        only("ConfigMap").at("/data/metahooks-dashboard.json").asText());
  }

  private static List<String> alertExpressions() {
    List<String> expressions = new ArrayList<>();
    only("PrometheusRule")
        .at("/spec/groups")
        .forEach(
            group ->
                group.path("rules").forEach(rule -> expressions.add(rule.path("expr").asText())));
    return expressions;
  }

  private static List<String> dashboardExpressions() throws IOException {
    List<String> expressions = new ArrayList<>();
    dashboard()
        .path("panels")
        .forEach(
            panel ->
                panel
                    .path("targets")
                    .forEach(target -> expressions.add(target.path("expr").asText())));
    return expressions;
  }

  @Test
  void theComponentAddsAPodMonitorRulesAndADashboardAndChangesNothingElse() {
    List<JsonNode> base = Manifests.render(Manifests.MANIFESTS);
    assertThat(added(withComponent).stream().map(o -> o.path("kind").asText()).sorted().toList())
        .containsExactly("ConfigMap", "PodMonitor", "PrometheusRule");
    assertThat(
            withComponent.stream().filter(o -> !KINDS.contains(o.path("kind").asText())).toList())
        .containsExactlyElementsOf(base);
    for (JsonNode object : added(withComponent)) {
      ThirdPartyCrds.assertValid(
          object); // the Prometheus Operator's CRDs; the ConfigMap by the built-in model
      assertThat(object.at("/metadata/namespace").asText()).isEqualTo("metahooks");
    }
    KubeSchema.assertValid(only("ConfigMap"));
    assertThat(only("ConfigMap").at("/metadata/labels/grafana_dashboard").asText()).isEqualTo("1");
  }

  @Test
  void thePodMonitorScrapesTheServersMetricsPort() {
    JsonNode monitor = only("PodMonitor").path("spec");
    JsonNode pods = Rendered.deployment().at("/spec/template/metadata/labels");
    assertThat(Rendered.selects(monitor.path("selector"), pods)).isTrue();
    assertThat(monitor.at("/podMetricsEndpoints/0/path").asText()).isEqualTo("/metrics");
    assertThat(Rendered.containerPort(monitor.at("/podMetricsEndpoints/0/port"))).isEqualTo(8080);
  }

  @Test
  void everyMetricTheAlertsAndTheDashboardReadIsExportedByAFreshServer() throws IOException {
    Set<String> exported = PromQl.exposed(freshMetrics);
    Set<String> read = new TreeSet<>();
    Stream.concat(alertExpressions().stream(), dashboardExpressions().stream())
        .forEach(expression -> read.addAll(PromQl.metricsIn(expression)));
    assertThat(read)
        .contains(
            "metahooks_hook_requests_total",
            "metahooks_hook_duration_seconds_bucket",
            "process_start_time_seconds",
            "metahooks_hook_answers_unwritten_total");
    assertThat(exported).containsAll(read);
    assertThat(alertExpressions()).hasSize(4);
  }

  @Test
  void theOutcomesTheyCountAreOutcomesTheServerCounts() throws IOException {
    Set<String> outcomes =
        new TreeSet<>(Arrays.stream(ErrorCode.values()).map(ErrorCode::code).toList());
    outcomes.add("ok");
    Matcher matcher =
        Pattern.compile("outcome(?:=~|!~|!=|=)\"([^\"]+)\"")
            .matcher(
                String.join("\n", alertExpressions()) + String.join("\n", dashboardExpressions()));
    int found = 0;
    while (matcher.find()) {
      found++;
      assertThat(outcomes).containsAll(List.of(matcher.group(1).split("\\|")));
    }
    assertThat(found).isGreaterThanOrEqualTo(3);
  }

  @Test
  void theDashboardIsADashboardOfPrometheusPanels() throws IOException {
    JsonNode dashboard = dashboard();
    assertThat(dashboard.path("uid").asText()).isNotBlank();
    assertThat(dashboard.path("title").asText()).isNotBlank();
    List<String> titles = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      titles.add(panel.path("title").asText());
      assertThat(panel.path("type").asText()).isEqualTo("timeseries");
      assertThat(panel.at("/datasource/type").asText()).isEqualTo("prometheus");
      assertThat(panel.path("gridPos").path("w").asInt()).isBetween(1, 24);
      assertThat(panel.path("targets")).isNotEmpty();
    }
    assertThat(titles).doesNotHaveDuplicates().hasSizeGreaterThanOrEqualTo(8);
    List<String> variables = new ArrayList<>();
    dashboard.at("/templating/list").forEach(v -> variables.add(v.path("name").asText()));
    assertThat(variables).containsExactly("datasource", "namespace");
  }

  /** promtool (Debian's prometheus package) checks the rules and every dashboard query as Prometheus parses them. */
  @Test
  void prometheusAcceptsTheRulesAndTheQueries(@TempDir Path dir) throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/promtool"))) {
      throw MissingComponent.skipOrFail("promtool not found: install Debian's prometheus package");
    }
    Path rules = dir.resolve("rules.json");
    Files.writeString(
        rules, JsonTrees.MAPPER.writeValueAsString(only("PrometheusRule").path("spec")));
    assertThat(promtool("check", "rules", rules.toString())).contains("SUCCESS: 4 rules found");

    List<Map<String, String>> recorded = new ArrayList<>();
    int i = 0;
    for (String expression : dashboardExpressions()) {
      recorded.add(
          Map.of(
              "record",
              "dashboard:query" + i++,
              "expr",
              expression.replace("$namespace", "metahooks")));
    }
    Path queries = dir.resolve("queries.json");
    Files.writeString(
        queries,
        JsonTrees.MAPPER.writeValueAsString(
            Map.of("groups", List.of(Map.of("name", "dashboard", "rules", recorded)))));
    assertThat(promtool("check", "rules", queries.toString()))
        .contains("SUCCESS: " + recorded.size() + " rules found");
  }

  @Test
  void eachAlertFiresOnTheSeriesItWatches(@TempDir Path dir) throws Exception {
    if (!Files.isExecutable(Path.of("/usr/bin/promtool"))) {
      throw MissingComponent.skipOrFail("promtool not found: install Debian's prometheus package");
    }
    Files.writeString(
        dir.resolve("rules.json"),
        JsonTrees.MAPPER.writeValueAsString(only("PrometheusRule").path("spec")));
    Path tests =
        Files.copy(
            Resources.path("monitoring/hook-server-alerts.test.yaml"),
            dir.resolve("alerts.test.yaml"));
    String tested = Files.readString(tests);
    only("PrometheusRule")
        .at("/spec/groups/0/rules")
        .forEach(
            rule ->
                assertThat(tested)
                    .as("a test of %s", rule.path("alert").asText())
                    .contains("alertname: " + rule.path("alert").asText()));
    assertThat(promtool("test", "rules", tests.toString())).contains("SUCCESS");
  }

  private static String promtool(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("/usr/bin/promtool"));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    return out;
  }

  @Test
  void theHelmValueRendersWhatTheComponentRenders() {
    assertThat(added(HelmChartIT.helm(Map.of()))).isEmpty();
    List<JsonNode> fromHelm = added(HelmChartIT.helm(Map.of("monitoring.enabled", true)));
    assertThat(fromHelm).containsExactlyInAnyOrderElementsOf(added(withComponent));

    JsonNode secure =
        HelmChartIT.helm(Map.of("monitoring.enabled", true, "secure.enabled", true)).stream()
            .filter(o -> o.path("kind").asText().equals("PodMonitor"))
            .findFirst()
            .orElseThrow();
    assertThat(secure.at("/spec/podMetricsEndpoints/0/port").asText()).isEqualTo("management");
  }

  @Test
  void theHelmValueNamesTheMonitoringNamespaceOrLeavesTheRuleOut() {
    JsonNode other = networkPolicy(HelmChartIT.helm(Map.of("monitoring.namespace", "prometheus")));
    assertThat(other.at("/spec/ingress/1/from/0/namespaceSelector/matchLabels").toString())
        .isEqualTo("{\"kubernetes.io/metadata.name\":\"prometheus\"}");
    assertThat(
            networkPolicy(HelmChartIT.helm(Map.of("monitoring.namespace", ""))).at("/spec/ingress"))
        .hasSize(1);
  }

  /**
   * monitoring.labels reaches the PodMonitor and the PrometheusRule, what a Prometheus selects them by
   * (kube-prometheus-stack: {@code release: <its release>}), and nothing else; by default they carry only their name.
   */
  @Test
  void theHelmValueLabelsWhatPrometheusSelects() {
    List<JsonNode> plain = added(HelmChartIT.helm(Map.of("monitoring.enabled", true)));
    List<JsonNode> labelled =
        added(
            HelmChartIT.helm(
                Map.of(
                    "monitoring.enabled",
                    true,
                    "monitoring.labels.release",
                    "kube-prometheus-stack")));

    assertThat(selectedByRelease(plain)).isEmpty();
    assertThat(selectedByRelease(labelled))
        .containsExactlyInAnyOrder("PodMonitor", "PrometheusRule");
    assertThat(withoutLabels(labelled)).containsExactlyInAnyOrderElementsOf(withoutLabels(plain));
    for (JsonNode object : labelled) {
      assertThat(object.at("/metadata/labels/app.kubernetes.io~1name").asText())
          .isEqualTo("metahooks");
    }
  }

  /** README's kustomization for kube-prometheus-stack labels the same objects, as the Helm value does. */
  @Test
  void theReadmesPatchLabelsWhatTheHelmValueLabels() throws IOException {
    List<JsonNode> objects =
        Manifests.render(
            readmeKustomization(
                "kube-prometheus-stack",
                "# kustomization\\.yaml of your own, for kube-prometheus-stack"));

    assertThat(selectedByRelease(added(objects)))
        .containsExactlyInAnyOrder("PodMonitor", "PrometheusRule");
    assertThat(added(objects))
        .containsExactlyInAnyOrderElementsOf(
            added(
                HelmChartIT.helm(
                    Map.of(
                        "monitoring.enabled",
                        true,
                        "monitoring.labels.release",
                        "kube-prometheus-stack"))));
    assertThat(withoutLabels(objects))
        .containsExactlyInAnyOrderElementsOf(withoutLabels(withComponent));
  }

  /** The kinds of the objects a kube-prometheus-stack release named kube-prometheus-stack selects. */
  private static List<String> selectedByRelease(List<JsonNode> objects) {
    return objects.stream()
        .filter(o -> o.at("/metadata/labels/release").asText().equals("kube-prometheus-stack"))
        .map(o -> o.path("kind").asText())
        .toList();
  }

  private static List<JsonNode> withoutLabels(List<JsonNode> objects) {
    return objects.stream()
        .map(
            o -> {
              JsonNode copy = o.deepCopy();
              ((ObjectNode) copy.path("metadata")).remove("labels");
              return copy;
            })
        .toList();
  }

  /** A block of docs/deploy.md's Monitoring that starts with {@code header}, written as a kustomization in target/. */
  private static Path readmeKustomization(String name, String header) throws IOException {
    String block =
        MarkdownBlocks.blocks("docs/deploy.md", "Monitoring", "yaml").stream()
            .filter(b -> Pattern.compile(header).matcher(b).lookingAt())
            .findFirst()
            .orElse(null);
    assertThat(block).as("docs/deploy.md's kustomization %s", header).isNotNull();
    Path dir =
        Files.createDirectories(Resources.projectDir().resolve("target/kustomize-readme-" + name));
    Files.writeString(
        dir.resolve("kustomization.yaml"), block.replace("<path to metahooks>", "../.."));
    return dir;
  }

  private static JsonNode networkPolicy(List<JsonNode> objects) {
    return objects.stream()
        .filter(o -> o.path("kind").asText().equals("NetworkPolicy"))
        .findFirst()
        .orElseThrow();
  }

  /** docs/deploy.md's kustomization of one's own, with the component and another monitoring namespace, as it stands. */
  @Test
  void theReadmesKustomizationAddsTheComponentAndAdmitsItsNamespace() throws IOException {
    List<JsonNode> objects =
        Manifests.render(readmeKustomization("monitoring", "# kustomization\\.yaml of your own\n"));

    assertThat(added(objects)).containsExactlyInAnyOrderElementsOf(added(withComponent));
    assertThat(
            networkPolicy(objects)
                .at("/spec/ingress/1/from/0/namespaceSelector/matchLabels")
                .toString())
        .isEqualTo("{\"kubernetes.io/metadata.name\":\"prometheus\"}");
  }
}
