package dev.metahooks.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.api.Json;
import dev.metahooks.bench.RequestGenerator;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Resources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The safety net of the controllers that declare what their hooks read of observed objects ({@code reads}): a
 * keep-list that misses a field a hook reads would silently change answers. So every request such a controller
 * may get is answered through the projected parse and through a whole parse, and the two answers must be the
 * same status and the same bytes: every golden fixture, regression and upstream request (each sent to every sync
 * and finalize hook of every such controller, so another controller's objects are tried too), generated requests of every size
 * class, and fuzzed ones (valid and broken: the errors must be the same errors).
 */
class ProjectionEquivalenceTest {
  private static final List<Controller> CONTROLLERS = Catalog.controllers(FixedSources.INSTANCE);
  private static final FrontDoor PROJECTED = FrontDoor.of(CONTROLLERS);
  private static final FrontDoor WHOLE = FrontDoor.parsingWhole(CONTROLLERS);

  /** Jackson as it comes: of a name written twice, the last value is kept, as Go's encoding/json keeps it. */
  private static final com.fasterxml.jackson.databind.ObjectMapper LENIENT =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private static final List<Controller> DECLARING =
      CONTROLLERS.stream().filter(c -> !c.reads().isEmpty()).toList();

  /** The generated requests of the controllers that have a generator, by controller. */
  private static final Map<String, IntFunction<byte[]>> GENERATED =
      Map.of(
          "catset", size -> new RequestGenerator(size).catset(size),
          "indexedjob", size -> new RequestGenerator(size).indexedjob(size),
          "service-per-pod", size -> new RequestGenerator(size).servicePerPod(size),
          "global-configmap", size -> new RequestGenerator(size).globalConfigMap(size),
          "configmap-propagation", size -> new RequestGenerator(size).configMapPropagation(size),
          "secret-propagation", size -> new RequestGenerator(size).secretPropagation(size),
          "namespace-list", size -> new RequestGenerator(size).namespaceList(size),
          "configmap-list", size -> new RequestGenerator(size).configMapList(size));

  @Test
  void theBuiltInControllersThatReadFewFieldsDeclareThem() {
    assertThat(DECLARING)
        .extracting(Controller::name)
        .contains(
            "catset",
            "indexedjob",
            "service-per-pod",
            "hello-world",
            "global-configmap",
            "configmap-propagation",
            "secret-propagation",
            "namespace-list",
            "configmap-list");
  }

  @Test
  void everyStoredRequestIsAnsweredAsWhenParsedWhole() {
    List<byte[]> bodies = new ArrayList<>();
    for (String dir : new String[] {"fixtures", "upstream-answers", "regressions"}) {
      for (Path file : Resources.find(Resources.path(dir), ".request.json")) {
        bodies.add(
            Resources.bytes(file)); // as stored: key order, spacing, and the refused ones too
      }
    }
    int ok = 0;
    for (Controller controller : DECLARING) {
      // A customize request has no object maps: nothing of it is projected.
      for (Hook hook :
          controller.hooks().stream().filter(hook -> hook != Hook.CUSTOMIZE).toList()) {
        for (byte[] body : bodies) {
          ok += sameAnswer(controller.name(), hook.path(), body) ? 1 : 0;
        }
      }
    }
    assertThat(ok).as("calls answered 200").isGreaterThan(500);
  }

  @Test
  void generatedRequestsOfEverySizeAreAnsweredAsWhenParsedWhole() {
    for (Map.Entry<String, IntFunction<byte[]>> generator : GENERATED.entrySet()) {
      assertThat(DECLARING).extracting(Controller::name).contains(generator.getKey());
      for (int size : new int[] {0, 1, 2, 3, 10, 57, 300}) {
        assertThat(sameAnswer(generator.getKey(), "sync", generator.getValue().apply(size)))
            .as("%s of %d answered 200", generator.getKey(), size)
            .isTrue();
      }
    }
  }

  /**
   * A CatSet the hook rolls (OnDelete), one round on: the Pods of its answer observed Running and Ready, which
   * carry the template's hash; then with another template, whose hash they no longer match. No fixture has that.
   */
  @Test
  void aCatSetRolledByTheHookIsAnsweredAsWhenParsedWhole() throws Exception {
    ObjectNode request = (ObjectNode) Json.parse(new RequestGenerator(7).catset(4));
    ((ObjectNode) request.at("/controller/spec/childResources/0/updateStrategy"))
        .put("method", "OnDelete");
    ObjectNode pods = (ObjectNode) request.at("/children/Pod.v1");
    pods.removeAll();
    assertThat(sameAnswer("catset", "sync", bytes(request))).isTrue();
    for (int round = 0; round < 4; round++) {
      JsonNode answer =
          Json.parse(PROJECTED.call("catset", "sync", bytes(request)).body().toByteArray());
      for (JsonNode child : answer.path("children")) {
        if (child.path("kind").asText().equals("Pod")) {
          ObjectNode pod = child.deepCopy();
          ((ObjectNode) pod.get("metadata")).put("namespace", "default");
          pod.putObject("status")
              .put("phase", "Running")
              .putArray("conditions")
              .addObject()
              .put("type", "Ready")
              .put("status", "True");
          pods.set(pod.at("/metadata/name").asText(), pod);
        }
      }
      assertThat(sameAnswer("catset", "sync", bytes(request))).isTrue();
    }
    assertThat(pods.size()).isEqualTo(4);
    ((ObjectNode) request.at("/parent/spec/template/metadata/labels")).put("rolled", "yes");
    Reply rolled = PROJECTED.call("catset", "sync", bytes(request));
    assertThat(sameAnswer("catset", "sync", bytes(request))).isTrue();
    assertThat(Json.parse(rolled.body().toByteArray()).path("children").size())
        .as("the highest Pod left to be recreated")
        .isEqualTo(3);
  }

  private static byte[] lastValueKept(byte[] body) {
    try {
      return LENIENT.writeValueAsBytes(LENIENT.readTree(body));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static byte[] bytes(JsonNode request) {
    return request.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Provide
  Arbitrary<FuzzInput> projectedInputs() {
    List<String> declaring = DECLARING.stream().map(Controller::name).toList();
    return new FuzzTest().inputs().filter(input -> declaring.contains(input.controller()));
  }

  @Property(tries = 1000)
  void fuzzedRequestsAreAnsweredAsWhenParsedWhole(@ForAll("projectedInputs") FuzzInput input) {
    sameAnswer(input.controller(), input.hook(), input.body());
  }

  /**
   * Asserts both parses answer alike; whether that answer was a 200. A name written twice in a part of an observed
   * object the hook does not read is passed over by the projected parse (RequestReader says why): then its answer
   * must be the whole parse's answer to the request as Metacontroller's Go reads it, the last value kept.
   */
  private static boolean sameAnswer(String controller, String hook, byte[] body) {
    Reply whole = WHOLE.call(controller, hook, body);
    Reply projected = PROJECTED.call(controller, hook, body);
    if (whole.status() == 400
        && projected.status() != 400
        && new String(whole.body().toByteArray(), StandardCharsets.UTF_8)
            .contains("Duplicate field '")) {
      whole = WHOLE.call(controller, hook, lastValueKept(body));
    }
    String call =
        "/"
            + controller
            + "/"
            + hook
            + " of "
            + new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8);
    assertThat(projected.status()).as(call).isEqualTo(whole.status());
    assertThat(new String(projected.body().toByteArray(), StandardCharsets.UTF_8))
        .as(call)
        .isEqualTo(new String(whole.body().toByteArray(), StandardCharsets.UTF_8));
    return whole.status() == 200;
  }
}
