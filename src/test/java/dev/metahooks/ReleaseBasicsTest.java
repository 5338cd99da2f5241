package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.cli.Help;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.BuildInfo;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.TestServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The version means one thing everywhere; --help lists the settings the server reads (ServerConfigTest holds
 * docs/configuration.md's table to the same list).
 */
class ReleaseBasicsTest {
  private static final Path PROJECT = Resources.projectDir();
  static final String IMAGE = "ghcr.io/metahooks/metahooks";

  /** The pom's own version element (the first one after the artifactId: the project's, not a parent's). */
  static String pomVersion() throws Exception {
    String pom = Files.readString(PROJECT.resolve("pom.xml"));
    Matcher m =
        Pattern.compile("<artifactId>metahooks-parent</artifactId>\\s*<version>([^<]+)</version>")
            .matcher(pom);
    assertThat(m.find()).as("project version in pom.xml").isTrue();
    return m.group(1);
  }

  @Test
  void theVersionIsThePoms() throws Exception {
    assertThat(BuildInfo.version())
        .isEqualTo(pomVersion())
        .matches("\\d+\\.\\d+\\.\\d+(-[A-Za-z0-9.]+)?");
  }

  @Test
  void theChangelogHasAnEntryForTheVersion() throws Exception {
    assertThat(Files.readString(PROJECT.resolve("CHANGELOG.md")))
        .contains("## " + BuildInfo.version());
    assertThat(Files.readString(PROJECT.resolve("LICENSE")))
        .contains("Apache License", "Version 2.0, January 2004", "END OF TERMS AND CONDITIONS");
  }

  @Test
  void helpListsTheModesAndEverySettingTheServerReads() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Help.print(new PrintStream(out, true, StandardCharsets.UTF_8));
    String help = out.toString(StandardCharsets.UTF_8);
    assertThat(help)
        .contains(
            "metahooks " + BuildInfo.version(),
            "sync|finalize|customize",
            "diff",
            "train",
            "--version");
    Set<String> listed = new TreeSet<>();
    Matcher name = Pattern.compile("^\\s+(METAHOOKS_[A-Z_]+)\\s", Pattern.MULTILINE).matcher(help);
    while (name.find()) {
      listed.add(name.group(1));
    }
    assertThat(listed).containsExactlyInAnyOrderElementsOf(ServerConfig.variables());
    assertThat(help)
        .doesNotContain("see docs/configuration.md\n"); // every setting has its own line of help
  }

  @Test
  void theServerListsItsControllersAndHooks() {
    JsonNode listing = get("/controllers").json();
    assertThat(listing.path("version").asText()).isEqualTo(BuildInfo.version());
    List<String> names = new ArrayList<>();
    for (JsonNode entry : listing.path("controllers")) {
      names.add(entry.path("name").asText());
    }
    List<Controller> served = Catalog.controllers();
    assertThat(names).containsExactlyElementsOf(served.stream().map(Controller::name).toList());
    for (int i = 0; i < served.size(); i++) {
      Controller controller = served.get(i);
      JsonNode entry = listing.path("controllers").get(i);
      List<String> hooks = new ArrayList<>();
      entry.path("hooks").forEach(h -> hooks.add(h.asText()));
      assertThat(hooks)
          .as(controller.name())
          .containsExactlyInAnyOrderElementsOf(
              controller.hooks().stream().map(Hook::path).toList());
      entry
          .path("paths")
          .forEach(p -> assertThat(p.asText()).startsWith("/" + controller.name() + "/"));
      // every listed path is served: a POST gets past routing (400 for the empty body, not 404)
      entry
          .path("paths")
          .forEach(
              p ->
                  assertThat(TestServer.post(p.asText(), new byte[0]).status())
                      .as(p.asText())
                      .isEqualTo(400));
    }
  }

  @Test
  void theMetricsCarryTheBuild() {
    assertThat(get("/metrics").body())
        .containsPattern(
            "metahooks_build_info\\{version=\""
                + Pattern.quote(BuildInfo.version())
                + "\"} 1(\\.0)?\n");
  }

  private static TestServer.Reply get(String path) {
    return TestServer.send(HttpRequest.newBuilder(TestServer.uri(path)).GET().build());
  }
}
