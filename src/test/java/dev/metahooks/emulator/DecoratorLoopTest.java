package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.DecoratorRequest;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.api.Json;
import dev.metahooks.testsupport.TestKinds;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The DecoratorController loop of the emulator, driven through a small decorator defined here. */
class DecoratorLoopTest {
  private static LocalHooks hooks;
  private Cluster cluster;
  private Metacontroller mc;

  /** Labels and annotates the target, attaches a ConfigMap, and sets status when the spec asks. */
  static DecoratorResponse sync(DecoratorRequest request) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("decorated", "true");
    labels.put("obsolete", null);
    ObjectNode status =
        request.object().path("spec").path("writeStatus").asBoolean(false)
            ? Json.object().put("decorated", true)
            : null;
    return new DecoratorResponse(
        labels,
        Map.of("seen-attachments", String.join(",", request.attachments().keys("v1", "ConfigMap"))),
        status,
        List.of(TestKinds.configMap(request.name() + "-att", "for", request.name())),
        null,
        null);
  }

  /** Removes the attachments; done once none is observed. */
  static DecoratorResponse finalize(DecoratorRequest request) {
    boolean done = request.attachments().count("v1", "ConfigMap") == 0;
    return new DecoratorResponse(null, null, null, List.of(), null, done);
  }

  @BeforeAll
  static void startHooks() {
    hooks =
        LocalHooks.start(
            Controller.decorator("labeller")
                .sync(DecoratorLoopTest::sync)
                .finalize(DecoratorLoopTest::finalize)
                .build());
  }

  @AfterAll
  static void stopHooks() {
    hooks.close();
  }

  @BeforeEach
  void setUp() {
    cluster = TestKinds.cluster();
    mc =
        new Metacontroller(cluster, hooks.baseUrl())
            .loadYaml(
                """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: DecoratorController
        metadata: {name: labeller-controller}
        spec:
          resources:
          - apiVersion: test.metahooks.dev/v1
            resource: things
            annotationSelector:
              matchExpressions: [{key: decorate, operator: Exists}]
          attachments: [{apiVersion: v1, resource: configmaps}]
          hooks:
            sync: {version: v2, webhook: {url: "http://metahooks.metahooks/labeller/sync"}}
            finalize: {version: v2, webhook: {url: "http://metahooks.metahooks/labeller/finalize"}}
        """);
  }

  @Test
  void labelsAnnotationsAndAttachmentsAreApplied() {
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing,
         metadata: {name: d, annotations: {decorate: "yes"}, labels: {obsolete: "x", keep: "y"}}}""");
    cluster.updateStatus(
        TestKinds.API_VERSION, "Thing", "default", "d", t -> t.putObject("status").put("mine", 1));
    cluster.create("{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: ignored}}");

    mc.runUntilStable(10);

    ObjectNode thing = cluster.get(TestKinds.API_VERSION, "Thing", "default", "d");
    assertThat(thing.at("/metadata/labels").toString())
        .isEqualTo("{\"keep\":\"y\",\"decorated\":\"true\"}");
    assertThat(thing.at("/metadata/annotations/seen-attachments").asText())
        .isEqualTo("default/d-att");
    assertThat(thing.at("/status").toString())
        .as("a null status leaves it")
        .isEqualTo("{\"mine\":1}");
    assertThat(thing.at("/metadata/finalizers/0").asText())
        .isEqualTo("metacontroller.io/decoratorcontroller-labeller-controller");
    ObjectNode attachment = cluster.get("v1", "ConfigMap", "default", "d-att");
    assertThat(
            attachment
                .at("/metadata/annotations/metacontroller.k8s.io~1decorator-controller")
                .asText())
        .isEqualTo("labeller-controller");
    assertThat(attachment.at("/metadata/ownerReferences/0/uid"))
        .isEqualTo(thing.at("/metadata/uid"));
    assertThat(mc.lastCall("labeller-controller", "sync").request().at("/attachments").toString())
        .startsWith("{\"ConfigMap.v1\":{\"default/d-att\":");

    assertThat(
            cluster
                .get(TestKinds.API_VERSION, "Thing", "default", "ignored")
                .at("/metadata/labels")
                .isMissingNode())
        .isTrue();
    assertThat(mc.calls())
        .allSatisfy(call -> assertThat(call.parent()).isEqualTo("Thing default/d"));
  }

  @Test
  void aStatusObjectReplacesTheStatus() {
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing,
         metadata: {name: d, annotations: {decorate: "yes"}}, spec: {writeStatus: true}}""");
    cluster.updateStatus(
        TestKinds.API_VERSION, "Thing", "default", "d", t -> t.putObject("status").put("mine", 1));
    mc.runUntilStable(10);
    assertThat(cluster.get(TestKinds.API_VERSION, "Thing", "default", "d").at("/status").toString())
        .isEqualTo("{\"decorated\":true}");
  }

  @Test
  void leavingTheSelectorFinalizesWithoutDeleting() {
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: d, annotations: {decorate: "yes"}}}""");
    mc.runUntilStable(10);

    cluster.update(
        TestKinds.API_VERSION,
        "Thing",
        "default",
        "d",
        t -> t.withObject("/metadata/annotations").remove("decorate"));
    mc.runUntilStable(10);

    ObjectNode thing = cluster.get(TestKinds.API_VERSION, "Thing", "default", "d");
    assertThat(thing.at("/metadata/finalizers").isMissingNode()).isTrue();
    assertThat(cluster.exists("v1", "ConfigMap", "default", "d-att")).isFalse();
    assertThat(mc.calls("labeller-controller", "finalize"))
        .hasSize(2)
        .allSatisfy(call -> assertThat(call.request().get("finalizing").asBoolean()).isTrue());
    int calls = mc.calls().size();
    mc.runUntilStable(3);
    assertThat(mc.calls()).as("no longer selected, no finalizer: not synced").hasSize(calls);
  }

  @Test
  void deletingTheTargetFinalizesThenItDisappears() {
    cluster.create(
        """
        {apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: d, annotations: {decorate: "yes"}}}""");
    mc.runUntilStable(10);

    cluster.delete(TestKinds.API_VERSION, "Thing", "default", "d");
    mc.runUntilStable(10);

    assertThat(cluster.find(TestKinds.API_VERSION, "Thing", "default", "d")).isEmpty();
    assertThat(cluster.list("v1", "ConfigMap")).isEmpty();
  }

  private Metacontroller decorating(Profile profile, String resources) {
    cluster = TestKinds.cluster();
    return new Metacontroller(cluster, hooks.baseUrl())
        .profile(profile)
        .loadYaml(
            """
        apiVersion: metacontroller.k8s.io/v1alpha1
        kind: DecoratorController
        metadata: {name: twice-controller}
        spec:
          resources: %s
          attachments: [{apiVersion: v1, resource: configmaps}]
          hooks: {sync: {version: v2, webhook: {url: "http://metahooks.metahooks/labeller/sync"}}}
        """
                .formatted(resources));
  }

  @Test
  void ofTwoEntriesForOneKindOnlyTheLastSelectsOnV4172() {
    String twice =
        """
        [{apiVersion: test.metahooks.dev/v1, resource: things, labelSelector: {matchLabels: {tier: a}}},
         {apiVersion: test.metahooks.dev/v1, resource: things, labelSelector: {matchLabels: {tier: b}}}]""";
    Metacontroller faithful = decorating(Profile.V4_17_2, twice);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a, labels: {tier: a}}, spec: {}}");
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: b, labels: {tier: b}}, spec: {}}");
    faithful.runUntilStable(10);
    assertThat(cluster.exists("v1", "ConfigMap", "default", "a-att")).isFalse();
    assertThat(cluster.exists("v1", "ConfigMap", "default", "b-att")).isTrue();

    Metacontroller intended = decorating(Profile.INTENDED, twice);
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Thing, metadata: {name: a, labels: {tier: a}}, spec: {}}");
    intended.runUntilStable(10);
    assertThat(cluster.exists("v1", "ConfigMap", "default", "a-att")).isTrue();
  }

  @Test
  void anAnnotationSelectorValueMustBeAValidLabelValueOnV4172() {
    assertThatThrownBy(
            () ->
                decorating(
                    Profile.V4_17_2,
                    "[{apiVersion: test.metahooks.dev/v1, resource: things, annotationSelector: {matchAnnotations: {ports: \"80:8080\"}}}]"))
        .hasMessageContaining("can't convert annotation selector")
        .hasMessageContaining("80:8080");
  }
}
