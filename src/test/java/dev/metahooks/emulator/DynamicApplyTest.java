package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.testing.kube.Yaml;
import org.junit.jupiter.api.Test;

/** The three-way merge of Metacontroller's dynamic apply. */
class DynamicApplyTest {

  private static ObjectNode created(String desired) {
    ObjectNode object = DynamicApply.forCreate(Yaml.object(desired));
    object.withObject("/metadata").put("uid", "u1").put("resourceVersion", "7");
    return object;
  }

  @Test
  void sameDesiredStateIsANoOp() {
    String desired = "{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: '1'}}";
    ObjectNode observed = created(desired);
    assertThat(Trees.same(DynamicApply.update(observed, Yaml.object(desired)), observed)).isTrue();
  }

  @Test
  void desiredWinsRemovedFieldsGoOtherFieldsStay() {
    ObjectNode observed =
        created("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: '1', b: '2'}}");
    observed.withObject("/data").put("added-by-someone", "x");
    observed.withObject("/metadata").putObject("labels").put("team", "t");

    ObjectNode merged =
        DynamicApply.update(
            observed,
            Yaml.object("{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: '9'}}"));

    assertThat(merged.get("data").toString()).isEqualTo("{\"a\":\"9\",\"added-by-someone\":\"x\"}");
    assertThat(merged.at("/metadata/labels/team").asText()).isEqualTo("t");
    assertThat(merged.at("/metadata/uid").asText()).isEqualTo("u1");
    assertThat(
            merged
                .at("/metadata/annotations/metacontroller.k8s.io~1last-applied-configuration")
                .asText())
        .isEqualTo(
            "{\"apiVersion\":\"v1\",\"data\":{\"a\":\"9\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"c\"}}");
  }

  @Test
  void listsOfNamedObjectsMergeByNameOtherListsAreReplaced() {
    ObjectNode observed =
        created(
            """
        {apiVersion: v1, kind: Pod, metadata: {name: p},
         spec: {containers: [{name: app, image: a:1, args: [x, y]}]}}""");
    observed
        .withArray("/spec/containers")
        .addObject()
        .put("name", "injected-sidecar")
        .put("image", "s:1");

    ObjectNode merged =
        DynamicApply.update(
            observed,
            Yaml.object(
                """
        {apiVersion: v1, kind: Pod, metadata: {name: p},
         spec: {containers: [{name: app, image: a:2, args: [z]}, {name: new, image: n:1}]}}"""));

    assertThat(merged.at("/spec/containers").toString())
        .isEqualTo(
            "[{\"name\":\"app\",\"image\":\"a:2\","
                + "\"args\":[\"z\"]},{\"name\":\"injected-sidecar\",\"image\":\"s:1\"},{\"name\":\"new\",\"image\":\"n:1\"}]");
  }

  @Test
  void statusAndSystemFieldsCannotBeChangedByTheDesiredObject() {
    ObjectNode observed = created("{apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {a: 1}}");
    observed.putObject("status").put("phase", "Running");

    ObjectNode merged =
        DynamicApply.update(
            observed,
            Yaml.object(
                """
        {apiVersion: v1, kind: Pod, metadata: {name: p, uid: other, resourceVersion: '1'}, spec: {a: 1},
         status: {phase: Failed}}"""));

    assertThat(merged.at("/status/phase").asText()).isEqualTo("Running");
    assertThat(merged.at("/metadata/uid").asText()).isEqualTo("u1");
    assertThat(merged.at("/metadata/resourceVersion").asText()).isEqualTo("7");
  }
}
