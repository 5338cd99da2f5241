package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.docs.MarkdownBlocks;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testsupport.PromQl;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} of a server that has answered nothing yet: every metric docs/http.md lists is there (counters at 0,
 * so that a rate or an alert has a series from the start), and the latency histogram has the documented handful of
 * buckets per hook.
 */
class FreshMetricsTest {
  private static HookServer server;
  private static String metrics;

  @BeforeAll
  static void start() throws Exception {
    server = new HookServer(ServerConfig.defaults().withPort(0), Catalog.controllers()).start();
    metrics =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + server.port() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString())
            .body();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void everyMetricTheDocsListIsThereBeforeTheFirstCall() throws Exception {
    String page = MarkdownBlocks.page("docs/http.md");
    Matcher row = Pattern.compile("(?m)^\\| `GET /metrics` \\|(.*)$").matcher(page);
    assertThat(row.find()).as("the /metrics row of docs/http.md").isTrue();
    List<String> listed = new ArrayList<>();
    Matcher name = Pattern.compile("`(metahooks_[a-z_]+)").matcher(row.group(1));
    while (name.find()) {
      listed.add(name.group(1));
    }
    assertThat(listed)
        .contains("metahooks_hook_answers_unwritten_total", "metahooks_hook_requests_total");
    assertThat(PromQl.exposed(metrics)).containsAll(listed);
  }

  @Test
  void theUnwrittenAnswersCounterIsZeroForEveryServedHook() {
    for (Controller controller : Catalog.controllers()) {
      for (Hook hook : controller.hooks()) {
        assertThat(metrics)
            .contains(
                "metahooks_hook_answers_unwritten_total{controller=\""
                    + controller.name()
                    + "\",hook=\""
                    + hook.path()
                    + "\"} 0.0\n");
      }
    }
  }

  @Test
  void theLatencyHistogramHasTheDocumentedBuckets() throws Exception {
    Matcher bucket =
        Pattern.compile(
                "(?m)^metahooks_hook_duration_seconds_bucket\\{controller=\"hello-world\",hook=\"sync\",le=\"([^\"]+)\"}")
            .matcher(metrics);
    List<String> bounds = new ArrayList<>();
    while (bucket.find()) {
      bounds.add(bucket.group(1));
    }
    assertThat(bounds)
        .containsExactly("0.001", "0.005", "0.025", "0.1", "0.25", "1.0", "2.5", "5.0", "+Inf");
    assertThat(MarkdownBlocks.page("docs/http.md"))
        .contains("buckets at 1, 5, 25, 100 and 250 ms and 1, 2.5 and 5 s");
  }
}
