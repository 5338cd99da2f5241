package dev.metahooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.CustomizeResponse;
import dev.metahooks.api.Hook;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.emulator.ApiResources;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testing.kube.Crds;
import dev.metahooks.testing.kube.MetacontrollerSchema;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A golden fixture's {@code controller} is what Metacontroller sends for the project's own manifest: the
 * CompositeController or DecoratorController of {@code metacontroller/} as the API server stores it (the
 * Metacontroller CRD's defaults applied: {@code hooks.*.version: v1}), its name and whole spec, with an empty
 * status. Metacontroller puts the controller object it watches into every request (the {@code controller} field of
 * composite/api/v1/hooks.go's request), so every field of its spec reaches the hook, and hooks read some of them
 * (CatSet its Pods' {@code updateStrategy}, every hook its {@code version}): a hand copy that drifted from the
 * manifest documents a request no cluster sends. Not compared: what the API server assigns ({@code uid},
 * {@code generation}, ...) and {@code apiVersion}/{@code kind}, which a typed informer's objects may lack.
 *
 * <p>The manifest is found by the hook's URL ({@code /<controller>/<hook>}); where two manifests serve the same
 * hook (update-strategy), the fixture's name chooses. One difference is allowed, and only where the case's name
 * says it ({@code 09-hook-v2-keys}, {@code 01-v1-statefulset-pod}): the hooks' {@code version}, for the fixtures
 * that show the other hook version's request (its object maps' keys).
 *
 * <p>Its {@code related} holds a group for every rule the controller's customize hook answers for its parent:
 * Metacontroller sends each group a rule names, empty or not (the emulator's {@code Related.select}). The
 * fixtures of {@link #WITHOUT_A_GROUP} leave one out on purpose: they show that a hook answers a request without
 * it (one written by hand, or by an older Metacontroller) as if the group were empty.
 */
class FixtureControllersTest {
  private static final Path FIXTURES = Resources.path("fixtures");
  private static final Set<String> ASSIGNED =
      Set.of("uid", "generation", "resourceVersion", "creationTimestamp", "managedFields");

  /** Fixtures that leave a related group out on purpose (see above). */
  private static final Set<String> WITHOUT_A_GROUP =
      Set.of(
          "configmap-list/sync/05-no-related-group.request.json",
          "configmap-propagation/sync/05-no-related-group-nothing-to-copy.request.json",
          "global-configmap/sync/04-no-namespaces-related-yet.request.json",
          "namespace-list/sync/04-no-related-group.request.json",
          "secret-propagation/sync/11-no-related-groups.request.json");

  /** A case named for a hook version: {@code 09-hook-v2-keys}, {@code 01-v1-statefulset-pod}. */
  private static final Pattern NAMES_A_VERSION =
      Pattern.compile("^\\d+-(.*-)?v[12](-.*)?\\.request\\.json$");

  @Test
  void everyFixturesControllerIsTheProjectsManifestAsStored() {
    List<ObjectNode> manifests = storedManifests();
    List<String> disagreements = new ArrayList<>();
    int checked = 0;
    for (Controller controller : Catalog.controllers()) {
      for (Path request : Resources.find(FIXTURES.resolve(controller.name()), ".request.json")) {
        String hook = request.getParent().getFileName().toString();
        ObjectNode sent = withoutAssigned(Resources.readObject(request).path("controller"));
        boolean otherVersion = NAMES_A_VERSION.matcher(request.getFileName().toString()).matches();
        List<ObjectNode> serving =
            manifests.stream()
                .filter(
                    manifest ->
                        hookUrl(manifest, hook).endsWith("/" + controller.name() + "/" + hook))
                .map(manifest -> otherVersion ? withVersionsOf(manifest, sent) : manifest)
                .toList();
        if (serving.stream().noneMatch(sent::equals)) {
          disagreements.add(
              FIXTURES.relativize(request) + ": " + sent + "\n    manifest: " + serving);
        }
        checked++;
      }
    }
    assertThat(disagreements)
        .as("fixtures whose controller is not the manifest's (of %s checked)", checked)
        .isEmpty();
    assertThat(checked).isGreaterThanOrEqualTo(Catalog.controllers().size() * 10);
  }

  @Test
  void everyFixtureRelatesEveryGroupItsCustomizeHookNames() {
    ApiResources resources = ApiResources.withCrds(crds());
    List<String> lacking = new ArrayList<>();
    int checked = 0;
    for (Controller controller : Catalog.controllers(FixedSources.INSTANCE)) {
      if (!controller.serves(Hook.CUSTOMIZE)) {
        continue;
      }
      for (Path request : Resources.find(FIXTURES.resolve(controller.name()), ".request.json")) {
        String fixture = FIXTURES.relativize(request).toString();
        if (request.getParent().getFileName().toString().equals("customize")
            || WITHOUT_A_GROUP.contains(fixture)) {
          continue;
        }
        ObjectNode sent = Resources.readObject(request);
        ObjectNode customize = Json.object();
        customize.set("controller", sent.get("controller"));
        customize.set("parent", sent.get("parent"));
        Set<String> named = new TreeSet<>();
        for (CustomizeResponse.RelatedResourceRule rule :
            ((CustomizeResponse) controller.handle(Hook.CUSTOMIZE, customize)).relatedResources()) {
          named.add(
              resources.requireResource(rule.apiVersion(), rule.resource()).kind()
                  + "."
                  + rule.apiVersion());
        }
        Set<String> missing = new TreeSet<>(named);
        sent.path("related").fieldNames().forEachRemaining(missing::remove);
        if (!missing.isEmpty()) {
          lacking.add(fixture + " lacks " + missing);
        }
        checked++;
      }
    }
    assertThat(lacking)
        .as("fixtures whose related lacks a group their customize hook names")
        .isEmpty();
    assertThat(checked).isGreaterThan(100);
  }

  private static Crds crds() {
    return Crds.from(Manifests.CRDS);
  }

  /**
   * Each controller of metacontroller/ as the API server stores it: with its CRD's defaults, which the emulated
   * API server does not apply to custom resources (docs/emulator.md).
   */
  private static List<ObjectNode> storedManifests() {
    List<ObjectNode> stored = new ArrayList<>();
    for (Path file : Manifests.yamlFiles(Manifests.METACONTROLLER)) {
      for (JsonNode manifest : Manifests.read(file)) {
        String kind = manifest.path("kind").asText();
        if (kind.equals("CompositeController") || kind.equals("DecoratorController")) {
          stored.add(withoutAssigned(MetacontrollerSchema.of(manifest).withDefaults(manifest)));
        }
      }
    }
    return stored;
  }

  /** The manifest with the hook versions the fixture names, for a fixture of the other hook version. */
  private static ObjectNode withVersionsOf(ObjectNode manifest, JsonNode fixture) {
    ObjectNode copy = manifest.deepCopy();
    copy.path("spec")
        .path("hooks")
        .fields()
        .forEachRemaining(
            hook -> {
              JsonNode version =
                  fixture.path("spec").path("hooks").path(hook.getKey()).get("version");
              if (version != null) {
                ((ObjectNode) hook.getValue()).set("version", version);
              }
            });
    return copy;
  }

  private static String hookUrl(JsonNode controller, String hook) {
    return controller.path("spec").path("hooks").path(hook).path("webhook").path("url").asText("");
  }

  /** The controller without what the API server assigns, and with Metacontroller's empty status. */
  private static ObjectNode withoutAssigned(JsonNode controller) {
    ObjectNode copy = controller.deepCopy();
    ((ObjectNode) copy.path("metadata")).remove(ASSIGNED);
    copy.remove(List.of("apiVersion", "kind"));
    copy.putObject("status");
    return copy;
  }
}
