package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link Emitted}: the objects of every answer, checked against the schema. */
class EmittedTest {
  private static LocalHooks hooks;

  @BeforeAll
  static void startHooks() {
    hooks = LocalHooks.start(Controller.composite("emitting").sync(EmittedTest::sync).build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  /** A ConfigMap, plus a second one with a field ConfigMaps do not have when the parent asks for it. */
  static CompositeResponse sync(CompositeRequest request) {
    ObjectNode good = TestKinds.configMap(request.name() + "-good", "key", "value");
    if (!request.parent().path("spec").path("invalid").asBoolean()) {
      return CompositeResponse.of(Json.object(), List.of(good));
    }
    ObjectNode bad = TestKinds.configMap(request.name() + "-bad", "key", "value");
    bad.putObject("spec").put("replicas", 1);
    return CompositeResponse.of(Json.object(), List.of(good, bad));
  }

  private static Metacontroller metacontroller(Cluster cluster) {
    return new Metacontroller(cluster, hooks.baseUrl()).loadYaml("""
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
  void collectsTheChildrenOfEveryAnswerAndAcceptsValidOnes() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc = metacontroller(cluster);
    cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}}");

    mc.runUntilStable(5);

    assertThat(Emitted.objects(mc, "emitting-controller")).hasSize(mc.calls().size())
        .allMatch(o -> o.at("/metadata/name").asText().equals("a-good"));
    Emitted.assertAllValid(mc, "emitting-controller");
  }

  @Test
  void failsOnAnInvalidObjectAndWhenNothingWasEmitted() {
    Cluster cluster = TestKinds.cluster();
    Metacontroller mc = metacontroller(cluster);
    assertThatThrownBy(() -> Emitted.assertAllValid(mc, "emitting-controller")).hasMessageContaining("no objects");

    cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a}, spec: {invalid: true}}");
    mc.runUntilStable(5);

    assertThatThrownBy(() -> Emitted.assertAllValid(mc, "emitting-controller")).hasMessageContaining("a-bad");
  }
}
