package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link Emitted}: the children of every answer, held to the Kubernetes schema. */
class EmittedTest {
  private static LocalHooks hooks;

  /** One valid ConfigMap child, and a second one with a misspelt field when the spec asks for it. */
  static CompositeResponse sync(CompositeRequest request) {
    ObjectNode good = TestKinds.configMap(request.name() + "-good", "key", "value");
    if (!request.parent().path("spec").path("misspell").asBoolean(false)) {
      return CompositeResponse.of(Json.object(), List.of(good));
    }
    ObjectNode bad = TestKinds.configMap(request.name() + "-bad", "key", "value");
    bad.set("datta", bad.remove("data"));
    return CompositeResponse.of(Json.object(), List.of(good, bad));
  }

  @BeforeAll
  static void startHooks() {
    hooks = LocalHooks.start(Controller.composite("emitting").sync(EmittedTest::sync).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  private Metacontroller metacontroller(Cluster cluster) {
    return new Metacontroller(cluster, hooks.baseUrl())
        .loadYaml(
            """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: CompositeController
        metadata: {name: emitting-controller}
        spec:
          generateSelector: true
          parentResource: {apiVersion: test.metahooks.dev/v1, resource: things}
          childResources: [{apiVersion: v1, resource: configmaps}]
          hooks:
            sync: {webhook: {url: "http://metahooks.metahooks/emitting/sync"}}
        """);
  }

  @Test
  void collectsTheChildrenOfEveryAnswerAndChecksThem() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc = metacontroller(cluster);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {}}");
    int rounds = mc.runUntilStable(5);

    assertThat(Emitted.objects(mc, "emitting-controller"))
        .hasSize(rounds)
        .allSatisfy(child -> assertThat(child.at("/metadata/name").asText()).isEqualTo("a-good"));
    assertThat(Emitted.assertAllValid(mc, "emitting-controller")).isEqualTo(rounds);
    assertThat(Emitted.objects(mc, "another-controller")).isEmpty();
  }

  @Test
  void failsOnAnObjectOutsideTheSchemaOrWhenNothingWasEmitted() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc = metacontroller(cluster);
    assertThatThrownBy(() -> Emitted.assertAllValid(mc, "emitting-controller"))
        .isInstanceOf(AssertionError.class);

    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {misspell: true}}");
    mc.round();

    assertThatThrownBy(() -> Emitted.assertAllValid(mc, "emitting-controller"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("a-bad");
  }
}
