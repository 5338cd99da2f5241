package dev.metahooks.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * A custom resource is stored as its CRD's structural schema declares it (Kubernetes'
 * apiextensions-apiserver/pkg/apiserver/schema/pruning/algorithm.go): an undeclared field is dropped, on create and on
 * a status write alike, unless the schema preserves unknown fields there or gives additionalProperties.
 */
class UnknownFieldsTest {
  private static final String CRD =
      """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata: {name: gadgets.test.metahooks.dev}
      spec:
        group: test.metahooks.dev
        names: {kind: Gadget, plural: gadgets}
        scope: Namespaced
        versions:
        - name: v1
          served: true
          storage: true
          subresources: {status: {}}
          schema:
            openAPIV3Schema:
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    size: {type: integer}
                    free: {type: object, x-kubernetes-preserve-unknown-fields: true}
                    labels: {type: object, additionalProperties: {type: string}}
                    parts:
                      type: array
                      items: {type: object, properties: {name: {type: string}}}
                status:
                  type: object
                  properties:
                    ready: {type: boolean}
      """;

  private static Cluster cluster() {
    Cluster cluster = new Cluster();
    cluster.create(CRD);
    return cluster;
  }

  @Test
  void undeclaredFieldsAreDroppedWherePreservedOrAdditionalPropertiesTheyStay() {
    ObjectNode gadget =
        cluster()
            .create(
                """
        {apiVersion: test.metahooks.dev/v1, kind: Gadget, metadata: {name: g},
         spec: {size: 3, colour: red, free: {anything: {deep: 1}}, labels: {a: b},
                parts: [{name: wheel, weight: 2}]}, extra: 1}
        """);

    assertThat(gadget.at("/spec/size").asInt()).isEqualTo(3);
    assertThat(gadget.at("/spec").has("colour")).as("undeclared").isFalse();
    assertThat(gadget.has("extra")).as("undeclared at the top").isFalse();
    assertThat(gadget.at("/spec/free/anything/deep").asInt())
        .as("x-kubernetes-preserve-unknown-fields")
        .isEqualTo(1);
    assertThat(gadget.at("/spec/labels/a").asText()).as("additionalProperties").isEqualTo("b");
    assertThat(gadget.at("/spec/parts/0/name").asText()).isEqualTo("wheel");
    assertThat(gadget.at("/spec/parts/0").has("weight")).as("inside list items").isFalse();
    assertThat(gadget.at("/metadata/name").asText())
        .as("metadata is never pruned by the schema")
        .isEqualTo("g");
  }

  @Test
  void aStatusFieldTheCrdDoesNotDeclareIsLostAsMetacontrollersObservedGenerationIs() {
    Cluster cluster = cluster();
    cluster.create(
        "{apiVersion: test.metahooks.dev/v1, kind: Gadget, metadata: {name: g}, spec: {size: 1}}");

    ObjectNode stored =
        cluster.updateStatus(
            "test.metahooks.dev/v1",
            "Gadget",
            "default",
            "g",
            g -> g.putObject("status").put("ready", true).put("observedGeneration", 1));

    assertThat(stored.at("/status/ready").asBoolean()).isTrue();
    assertThat(stored.at("/status").has("observedGeneration")).isFalse();
  }
}
