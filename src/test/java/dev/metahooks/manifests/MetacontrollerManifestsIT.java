package dev.metahooks.manifests;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.testing.kube.MetacontrollerSchema;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.ProjectCrds;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * {@code metacontroller/}: one controller object per hosted controller, each wired to hooks this server
 * serves, at the Service's URL, with parents that Metacontroller will accept.
 */
class MetacontrollerManifestsIT {
  /** The Service {@code metahooks} in the namespace {@code metahooks}, port 80. */
  private static final Pattern HOOK_URL =
      Pattern.compile("http://metahooks\\.metahooks/([a-z0-9-]+)/([a-z]+)");

  private static final FrontDoor SERVER = FrontDoor.of(Catalog.controllers());
  private static List<JsonNode> controllers;

  @BeforeAll
  static void render() {
    controllers = Manifests.render(Manifests.METACONTROLLER);
  }

  @Test
  void everyFileIsListed() {
    List<String> listed = Manifests.listedResources(Manifests.METACONTROLLER);
    List<Path> files = Manifests.yamlFiles(Manifests.METACONTROLLER);
    assertThat(files).isNotEmpty();
    for (Path file : files) {
      assertThat(listed)
          .as("resources of metacontroller/kustomization.yaml")
          .contains(file.getFileName().toString());
    }
  }

  @TestFactory
  Stream<DynamicTest> everyControllerFitsMetacontrollersSchema() {
    return controllers.stream()
        .map(
            controller ->
                DynamicTest.dynamicTest(
                    name(controller),
                    () -> {
                      assertThat(controller.path("apiVersion").asText())
                          .isEqualTo(MetacontrollerSchema.API_VERSION);
                      MetacontrollerSchema.of(controller).assertValid(controller);
                    }));
  }

  /**
   * A rolling strategy makes Metacontroller call a hook once per parent revision at once, and those calls
   * share one ETag cache entry per parent (pkg/hooks/webhook_etag.go), so a 304 can hand one revision another
   * revision's answer (docs/emulator.md, defects). No controller may combine the two.
   */
  @TestFactory
  Stream<DynamicTest> noControllerCombinesETagWithARollingStrategy() {
    return controllers.stream()
        .map(
            controller ->
                DynamicTest.dynamicTest(
                    name(controller),
                    () -> {
                      List<String> rolling = new ArrayList<>();
                      for (JsonNode child : controller.path("spec").path("childResources")) {
                        if (child
                            .path("updateStrategy")
                            .path("method")
                            .asText()
                            .startsWith("Rolling")) {
                          rolling.add(child.path("resource").asText());
                        }
                      }
                      List<String> etag = new ArrayList<>();
                      controller
                          .path("spec")
                          .path("hooks")
                          .properties()
                          .forEach(
                              hook -> {
                                if (hook.getValue()
                                    .path("webhook")
                                    .path("etag")
                                    .path("enabled")
                                    .asBoolean(false)) {
                                  etag.add(hook.getKey());
                                }
                              });
                      assertThat(rolling.isEmpty() || etag.isEmpty())
                          .as("%s rolls %s and enables etag on %s", name(controller), rolling, etag)
                          .isTrue();
                    }));
  }

  @TestFactory
  Stream<DynamicTest> everyHookUrlNamesAHookTheServerServes() {
    return controllers.stream()
        .map(
            controller ->
                DynamicTest.dynamicTest(
                    name(controller),
                    () -> {
                      assertThat(controller.at("/spec/hooks").isEmpty()).as("hooks").isFalse();
                      for (Map.Entry<String, JsonNode> hook :
                          controller.at("/spec/hooks").properties()) {
                        String url = hook.getValue().at("/webhook/url").asText("");
                        Matcher m = HOOK_URL.matcher(url);
                        assertThat(m.matches())
                            .as(
                                "%s hook url '%s' has the form http://metahooks.metahooks/<controller>/<hook>",
                                hook.getKey(), url)
                            .isTrue();
                        assertThat(m.group(2))
                            .as("%s hook url", hook.getKey())
                            .isEqualTo(hook.getKey());
                        assertThat(SERVER.serves(m.group(1), m.group(2)))
                            .as("the server serves %s", url)
                            .isTrue();
                      }
                    }));
  }

  /**
   * The server tags every 200 with an ETag and answers a matching If-None-Match with 304, so every hook asks
   * Metacontroller to use them. Its cache timeout and cleanup go together: with only the timeout set,
   * Metacontroller dereferences the missing cleanup interval (metacontroller.md, section 2).
   */
  @TestFactory
  Stream<DynamicTest> everyHookUsesETags() {
    return controllers.stream()
        .map(
            controller ->
                DynamicTest.dynamicTest(
                    name(controller),
                    () -> {
                      for (Map.Entry<String, JsonNode> hook :
                          controller.at("/spec/hooks").properties()) {
                        JsonNode etag = hook.getValue().at("/webhook/etag");
                        assertThat(etag.path("enabled").asBoolean())
                            .as("%s webhook.etag.enabled", hook.getKey())
                            .isTrue();
                        assertThat(etag.has("cacheTimeoutSeconds"))
                            .as(
                                "%s: cacheTimeoutSeconds and cacheCleanupSeconds together",
                                hook.getKey())
                            .isEqualTo(etag.has("cacheCleanupSeconds"));
                        assertThat(etag.path("cacheTimeoutSeconds").asInt(1))
                            .as("%s cacheTimeoutSeconds", hook.getKey())
                            .isPositive();
                        assertThat(etag.path("cacheCleanupSeconds").asInt(1))
                            .as("%s cacheCleanupSeconds", hook.getKey())
                            .isPositive();
                      }
                    }));
  }

  @Test
  void everyHookTheServerServesIsWired() {
    Set<String> wired = new TreeSet<>();
    for (JsonNode controller : controllers) {
      controller.at("/spec/hooks").forEach(hook -> wired.add(hook.at("/webhook/url").asText()));
    }
    List<String> unwired = new ArrayList<>();
    for (Controller controller : Catalog.controllers()) {
      for (Hook hook : controller.hooks()) {
        String url = "http://metahooks.metahooks/" + controller.name() + "/" + hook.path();
        if (!wired.contains(url)) {
          unwired.add(url);
        }
      }
    }
    assertThat(unwired).as("hooks no controller in metacontroller/ calls").isEmpty();
  }

  @TestFactory
  Stream<DynamicTest> everyCompositeParentIsACrdWithTheStatusSubresource() {
    return controllers.stream()
        .filter(c -> c.path("kind").asText().equals("CompositeController"))
        .map(
            controller ->
                DynamicTest.dynamicTest(
                    name(controller),
                    () -> {
                      String apiVersion = controller.at("/spec/parentResource/apiVersion").asText();
                      String resource = controller.at("/spec/parentResource/resource").asText();
                      int slash = apiVersion.indexOf('/');
                      assertThat(slash)
                          .as("parent apiVersion %s has a group", apiVersion)
                          .isPositive();
                      String crdName = resource + "." + apiVersion.substring(0, slash);
                      String version = apiVersion.substring(slash + 1);
                      JsonNode crd =
                          ProjectCrds.crds().stream()
                              .filter(c -> c.at("/metadata/name").asText().equals(crdName))
                              .findFirst()
                              .orElseThrow(
                                  () ->
                                      new AssertionError(
                                          "no CRD " + crdName + " in manifests/crds"));
                      JsonNode served = null;
                      for (JsonNode v : crd.at("/spec/versions")) {
                        if (v.path("name").asText().equals(version)
                            && v.path("served").asBoolean()) {
                          served = v;
                        }
                      }
                      assertThat(served).as("CRD %s serves %s", crdName, version).isNotNull();
                      assertThat(served.at("/subresources/status").isObject())
                          .as(
                              "CRD %s version %s has the status subresource (else Metacontroller ignores the controller)",
                              crdName, version)
                          .isTrue();
                    }));
  }

  private static String name(JsonNode controller) {
    return controller.path("kind").asText() + " " + controller.at("/metadata/name").asText();
  }
}
