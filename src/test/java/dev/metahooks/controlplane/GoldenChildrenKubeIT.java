package dev.metahooks.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.ControlPlane;
import dev.metahooks.testing.StoredForm;
import dev.metahooks.testing.kube.KubeApi;
import dev.metahooks.testsupport.Resources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every child and attachment of every golden answer, of every controller, sent to a real API server as Metacontroller
 * would create it: it must be accepted, and Metacontroller's next apply of the same answer to what the server stored
 * must change nothing ({@link StoredForm}), or the child would be updated on every sync.
 *
 * <p>Each child is created with {@code dryRun=All}: the server admits, validates and defaults it and answers with the
 * object as it would store it, without keeping it, so that the children of every fixture can share names (they
 * describe one cluster at different moments). Their parents' CRDs and namespaces exist first, and the
 * ServiceAccounts their pods name, as the pods would be refused without them.
 */
class GoldenChildrenKubeIT {
  static final Path FIXTURES = Resources.path("fixtures");

  /**
   * The fixtures' namespaces, each mapped to one of this test's own ({@code golden-<n>}): other tests' namespaces,
   * with their Pod Security levels, stay apart, and a fixture's 63-character name still fits.
   */
  static final String PREFIX = "golden-";

  static final Map<String, String> NAMESPACES = new java.util.HashMap<>();

  /**
   * Fixtures whose parent is invalid in a way the hook passes through, because Metacontroller's own example hook
   * does and the drop-in answer is the same (src/test/resources/upstream-answers: catset 025, daemonjob 039,
   * service-per-pod 030): the API server refuses the child, with this message, and Metacontroller reports the
   * refusal.
   */
  static final Map<String, String> REFUSED =
      Map.of(
          "catset/sync/09-no-service-no-claim-templates",
              "spec.containers[0].volumeMounts[0].name: Not found: \"www\"",
          "daemonjob/sync/04-empty-pause-image-used-as-given",
              "spec.template.spec.containers[0].image: Required value",
          "service-per-pod/sync/11-v2-negative-port-passed-through",
              "spec.ports[0].port: Invalid value: -1");

  static ControlPlane plane;
  static KubeApi api;

  @BeforeAll
  static void cluster() {
    plane = ControlPlane.shared();
    api = new KubeApi(plane.client());
    ProjectCluster.installCrds(plane);
  }

  @TestFactory
  Stream<DynamicNode> everyGoldenChildIsStoredAsTheHookSentIt() {
    List<Child> children = children();
    Set<String> namespaces = new LinkedHashSet<>();
    children.forEach(
        child -> {
          if (child.namespace() != null) {
            namespaces.add(child.namespace());
          }
        });
    namespaces.forEach(namespace -> ProjectCluster.namespace(api, namespace));
    for (Child child : children) {
      String account = child.object().at("/spec/serviceAccountName").asText("");
      if (child.object().path("kind").asText().equals("Pod") && !account.isEmpty()) {
        ProjectCluster.serviceAccount(api, child.namespace(), account);
      }
    }
    return children.stream()
        .collect(
            java.util.stream.Collectors.groupingBy(
                Child::controller, java.util.TreeMap::new, java.util.stream.Collectors.toList()))
        .entrySet()
        .stream()
        .map(
            controller ->
                DynamicContainer.dynamicContainer(
                    controller.getKey() + " (" + controller.getValue().size() + " children)",
                    controller.getValue().stream().map(this::test)));
  }

  private DynamicTest test(Child child) {
    return DynamicTest.dynamicTest(
        child.fixture()
            + ": "
            + child.object().path("kind").asText()
            + " "
            + child.object().at("/metadata/name").asText(),
        () -> {
          KubeApi.Answer answer =
              api.create(StoredForm.forCreate(child.object()), child.namespace(), true);
          if (REFUSED.containsKey(child.fixture())) {
            assertThat(answer.code())
                .as("the API server refuses %s of %s", child.describe(), child.fixture())
                .isEqualTo(422);
            assertThat(answer.message()).contains(REFUSED.get(child.fixture()));
            return;
          }
          assertThat(answer.ok())
              .as(
                  "the API server accepts %s of %s: %s",
                  child.describe(), child.fixture(), answer.message())
              .isTrue();
          assertThat(StoredForm.differences(child.object(), (ObjectNode) answer.body()))
              .as(
                  "what Metacontroller would change in %s of %s as the API server stored it",
                  child.describe(), child.fixture())
              .isEmpty();
        });
  }

  /** One child of one golden answer, and the namespace Metacontroller would create it in. */
  record Child(String controller, String fixture, ObjectNode object, String namespace) {
    String describe() {
      return object.path("kind").asText() + " " + object.at("/metadata/name").asText();
    }
  }

  static List<Child> children() {
    List<Child> children = new ArrayList<>();
    for (Path response : Resources.find(FIXTURES, ".response.json")) {
      Path request =
          response.resolveSibling(
              response.getFileName().toString().replace(".response.json", ".request.json"));
      JsonNode parent = Resources.readObject(request).path(parentField(request));
      JsonNode answer = Resources.readObject(response);
      String fixture = FIXTURES.relativize(response).toString().replace(".response.json", "");
      String controller = fixture.substring(0, fixture.indexOf('/'));
      for (String field : List.of("children", "attachments")) {
        for (JsonNode object : answer.path(field)) {
          ObjectNode child = ((ObjectNode) object).deepCopy();
          String namespace = namespace(parent, child);
          if (child.at("/metadata/namespace").isTextual()) {
            ((ObjectNode) child.get("metadata")).put("namespace", namespace);
          }
          children.add(new Child(controller, fixture, child, namespace));
        }
      }
    }
    return children;
  }

  /** A composite hook's request names its parent {@code parent}, a decorator's {@code object}. */
  private static String parentField(Path request) {
    JsonNode body = Resources.readObject(request);
    return body.has("parent") ? "parent" : "object";
  }

  /**
   * Where Metacontroller creates a child: in a namespaced parent's namespace; for a cluster-scoped parent, where the
   * child says (nowhere, if it says nothing).
   */
  private static String namespace(JsonNode parent, JsonNode child) {
    String parentNamespace = parent.at("/metadata/namespace").asText("");
    if (!parentNamespace.isEmpty()) {
      return NAMESPACES.computeIfAbsent(parentNamespace, name -> PREFIX + NAMESPACES.size());
    }
    String own = child.at("/metadata/namespace").asText("");
    return own.isEmpty()
        ? null
        : NAMESPACES.computeIfAbsent(own, name -> PREFIX + NAMESPACES.size());
  }
}
