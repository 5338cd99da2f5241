package dev.metahooks.cli.diff;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.Redaction;
import dev.metahooks.testsupport.Manifests;
import dev.metahooks.testsupport.Resources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiffCommandTest {
  private static final Path CATSET =
      Resources.projectDir().resolve("docs/diff/catset-scale-up.json");
  private static final Path POSTGRES =
      Resources.projectDir().resolve("docs/diff/postgrescluster-image-change.json");
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @TempDir Path dir;

  private int diff(String... args) {
    return DiffCommand.run(
        List.of(args),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private String printed() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private Path write(String name, JsonNode node) throws Exception {
    Path file = dir.resolve(name);
    Files.write(file, JsonTrees.MAPPER.writeValueAsBytes(node));
    return file;
  }

  @Test
  void aRecordedAnswerThisBuildNoLongerGivesIsAChangeByPath() throws Exception {
    ObjectNode recording = (ObjectNode) JsonTrees.MAPPER.readTree(CATSET.toFile());
    // as if an older build had answered with another image and without the last claim
    JsonNode children = recording.at("/response/children");
    for (JsonNode child : children) {
      if (child.path("kind").asText().equals("Pod")) {
        ((ObjectNode) child.at("/spec/containers/0")).put("image", "nginx:1.26");
      }
    }
    ((com.fasterxml.jackson.databind.node.ArrayNode) children).remove(children.size() - 1);
    assertThat(diff(write("older.json", recording).toString())).isEqualTo(1);
    assertThat(printed())
        .contains(
            "~ Pod default/nginx-backend-0\n      spec.containers[0].image: \"nginx:1.26\" → \"nginx:1.27\"")
        .contains("+ PersistentVolumeClaim default/www-nginx-backend-4")
        .contains("would change: 1 to create, 4 to change, 0 to delete");
  }

  @Test
  void aChildTheNewAnswerLeavesOutIsADeletion() throws Exception {
    ObjectNode recording = (ObjectNode) JsonTrees.MAPPER.readTree(CATSET.toFile());
    ((ObjectNode) recording.at("/request/parent/spec")).put("replicas", 2);
    assertThat(diff("--observed", write("down.json", recording).toString())).isEqualTo(1);
    assertThat(printed())
        .contains("- Pod default/nginx-backend-2")
        .doesNotContain("- PersistentVolumeClaim");
  }

  @Test
  void secretValuesNeverAppear() throws Exception {
    ObjectNode recording = (ObjectNode) JsonTrees.MAPPER.readTree(POSTGRES.toFile());
    // a recorded answer whose Secret held other values than the ones this build answers
    String password = "s3cret-password-that-must-not-show";
    String encoded =
        java.util.Base64.getEncoder().encodeToString(password.getBytes(StandardCharsets.UTF_8));
    for (JsonNode child : recording.at("/response/children")) {
      if (child.path("kind").asText().equals("Secret")) {
        ((ObjectNode) child.path("data")).put("password", encoded);
      }
    }
    assertThat(diff(write("secret.json", recording).toString())).isEqualTo(1);
    assertThat(printed())
        .contains("data.password: changed (<redacted>)")
        .doesNotContain(password, encoded);
  }

  @Test
  void liveObjectsBuildTheRequestAsMetacontrollerWould() throws Exception {
    JsonNode recorded = JsonTrees.MAPPER.readTree(CATSET.toFile());
    JsonNode request = recorded.get("request");
    Path manifest =
        write(
            "controller.json",
            Manifests.read(Manifests.METACONTROLLER.resolve("catset.yaml")).get(0));
    Path parents =
        write(
            "parents.json",
            Json.object()
                .put("kind", "List")
                .set("items", JsonTrees.MAPPER.createArrayNode().add(request.get("parent"))));
    com.fasterxml.jackson.databind.node.ArrayNode items = JsonTrees.MAPPER.createArrayNode();
    request.get("children").forEach(group -> group.forEach(items::add));
    ObjectNode foreign = items.get(0).deepCopy(); // another parent's pod: not a child of this one
    ((ObjectNode) foreign.at("/metadata")).put("name", "someone-else-0");
    ((ObjectNode) foreign.at("/metadata/ownerReferences/0")).put("uid", "another-uid");
    items.add(foreign);
    ObjectNode undeclared =
        Json.object().put("apiVersion", "v1").put("kind", "Service"); // owned, of no declared type
    undeclared
        .putObject("metadata")
        .put("name", "nginx-backend-extra")
        .put("namespace", "default")
        .set("ownerReferences", items.get(0).at("/metadata/ownerReferences"));
    items.add(undeclared);
    Path observed = write("observed.json", Json.object().put("kind", "List").set("items", items));
    assertThat(
            diff(
                "--manifest",
                manifest.toString(),
                "--parent",
                parents.toString(),
                observed.toString()))
        .as(err.toString())
        .isEqualTo(1);
    assertThat(printed())
        .contains("catset/sync  CatSet default/nginx-backend  (live CatSet default/nginx-backend)")
        .contains("+ Pod default/nginx-backend-3")
        .doesNotContain("someone-else", "nginx-backend-extra");
  }

  @Test
  void aNewPostgresClusterIsDiffedLiveWithEveryDeclaredGroupSentEmpty() throws Exception {
    ObjectNode parent =
        (ObjectNode) Manifests.read(Manifests.EXAMPLES.resolve("postgrescluster-dev.yaml")).get(0);
    ((ObjectNode) parent.get("metadata"))
        .put("namespace", "shop")
        .put("uid", "3a0f6d2e-1b7c-4e59-8f1a-0c2d4b6e8a90")
        .put("generation", 1);
    Path parents = write("parents.json", parent);
    Path nothing =
        write(
            "observed.json",
            Json.object().put("kind", "List").set("items", JsonTrees.MAPPER.createArrayNode()));

    assertThat(
            diff(
                "--manifest",
                Manifests.METACONTROLLER.resolve("postgrescluster.yaml").toString(),
                "--parent",
                parents.toString(),
                nothing.toString()))
        .as(err.toString())
        .isEqualTo(1);
    assertThat(printed())
        .contains("postgrescluster/sync  PostgresCluster shop/")
        .contains("+ StatefulSet shop/", "+ Service shop/")
        .doesNotContain("refused");
  }

  @Test
  void aChildKindOfWhichNothingIsKnownIsNamedWithTheWayToMakeItKnown() throws Exception {
    ObjectNode manifest =
        (ObjectNode) Manifests.read(Manifests.METACONTROLLER.resolve("catset.yaml")).get(0);
    manifest
        .withArray("/spec/childResources")
        .addObject()
        .put("apiVersion", "example.com/v1")
        .put("resource", "gizmos");
    Path parents =
        write("parents.json", JsonTrees.MAPPER.readTree(CATSET.toFile()).at("/request/parent"));

    assertThat(
            diff(
                "--manifest",
                write("controller.json", manifest).toString(),
                "--parent",
                parents.toString()))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("example.com/v1 gizmos", "kubectl get crd gizmos.example.com -o json");

    ObjectNode crd =
        Json.object()
            .put("apiVersion", "apiextensions.k8s.io/v1")
            .put("kind", "CustomResourceDefinition");
    ObjectNode spec = crd.putObject("spec").put("group", "example.com");
    spec.putObject("names").put("plural", "gizmos").put("kind", "Gizmo");
    spec.putArray("versions").addObject().put("name", "v1");
    out.reset();
    assertThat(
            diff(
                "--manifest",
                write("controller.json", manifest).toString(),
                "--parent",
                parents.toString(),
                write("crd.json", crd).toString()))
        .as(err.toString())
        .isEqualTo(1);
  }

  @Test
  void aPlainHookRequestIsComparedWithWhatItObserved() throws Exception {
    JsonNode request = JsonTrees.MAPPER.readTree(CATSET.toFile()).get("request");
    assertThat(diff(write("request.json", request).toString())).as(err.toString()).isEqualTo(1);
    assertThat(printed())
        .contains("catset/sync  CatSet default/nginx-backend")
        .contains("+ Pod default/nginx-backend-3");

    ObjectNode finalizing = ((ObjectNode) request.deepCopy()).put("finalizing", true);
    out.reset();
    assertThat(diff(write("finalize.json", finalizing).toString())).as(err.toString()).isIn(0, 1);
    assertThat(printed()).contains("catset/finalize  CatSet default/nginx-backend");
  }

  @Test
  void aRecordingComparedWithWhatItObservedNeedsNoResponse() throws Exception {
    ObjectNode recording = (ObjectNode) JsonTrees.MAPPER.readTree(CATSET.toFile());
    recording.remove("response");
    Path file = write("no-response.json", recording);
    assertThat(diff("--observed", file.toString())).as(err.toString()).isEqualTo(1);
    assertThat(diff(file.toString())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("no-response.json: neither a recording");
  }

  @Test
  void anErrorIsOneLineAndPointsToTheHelp() {
    assertThat(diff("--frobnicate", CATSET.toString())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "metahooks diff: unknown option --frobnicate (metahooks diff --help: the usage)\n");
    assertThat(diff("--help")).isZero();
    assertThat(printed()).contains("usage: metahooks diff");
  }

  @Test
  void nothingToChangeIsZero() {
    assertThat(diff(CATSET.toString(), POSTGRES.toString())).isZero();
    assertThat(printed()).isEqualTo("no changes: 2 calls answered as before\n");
  }

  @Test
  void inputItCannotUseIsTwoAndNamed() throws Exception {
    assertThat(diff()).isEqualTo(2);
    assertThat(diff(dir.resolve("missing.json").toString())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("missing.json: no such file");
    assertThat(diff(write("not-a-recording.json", Json.object().put("kind", "Pod")).toString()))
        .isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("not-a-recording.json: neither a recording");
    Files.writeString(dir.resolve("broken.json"), "{\"controller\": ");
    assertThat(diff(dir.resolve("broken.json").toString())).isEqualTo(2);
    ObjectNode unknown = (ObjectNode) JsonTrees.MAPPER.readTree(CATSET.toFile());
    unknown.put("controller", "no-such-controller");
    assertThat(diff(write("unknown.json", unknown).toString())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("serves no no-such-controller/sync hook");
    assertThat(diff("--manifest", CATSET.toString())).isEqualTo(2);
    assertThat(diff("--frobnicate", CATSET.toString())).isEqualTo(2);
    assertThat(diff("--help")).isZero();
    assertThat(Redaction.REDACTED_BASE64).isNotBlank();
  }

  @Test
  void aCallIsAnsweredWithinTheServersBodyAndAnswerLimits() {
    // No estimate of its size stops this answer early: only the writer's limit, as on the server,
    // refuses it.
    Controller large =
        Controller.composite("catset")
            .sync(
                request ->
                    CompositeResponse.of(
                        Json.object(),
                        List.of(
                            Json.object()
                                .put("apiVersion", "v1")
                                .put("kind", "ConfigMap")
                                .<ObjectNode>set("metadata", Json.object().put("name", "large"))
                                .<ObjectNode>set(
                                    "data", Json.object().put("x", "x".repeat(5_000))))))
            .build();
    ServerConfig small =
        ServerConfig.defaults().withMemory(ServerConfig.defaults().bodyBudgetBytes(), 2_000);
    assertThat(diff(small, List.of(large))).isEqualTo(1);
    assertThat(printed())
        .contains(
            "! refused: 422 the answer is larger than 2000 bytes (METAHOOKS_MAX_RESPONSE_BYTES);"
                + " writing stopped at")
        .contains("1 refused");

    out.reset();
    assertThat(diff(ServerConfig.defaults().withMaxBodyBytes(100), Catalog.controllers()))
        .isEqualTo(1);
    assertThat(printed()).contains("! refused: 413");
  }

  private int diff(ServerConfig config, List<Controller> controllers) {
    return DiffCommand.run(
        List.of(CATSET.toString()),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        at -> controllers,
        config);
  }
}
