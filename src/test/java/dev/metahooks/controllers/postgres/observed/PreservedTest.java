package dev.metahooks.controllers.postgres.observed;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import org.junit.jupiter.api.Test;

class PreservedTest {
  static ObjectNode observedService(String lastApplied) {
    ObjectNode service = Json.object().put("apiVersion", "v1").put("kind", "Service");
    ObjectNode metadata =
        service
            .putObject("metadata")
            .put("name", "pg-rw")
            .put("namespace", "shop")
            .put("uid", "u-1")
            .put("resourceVersion", "42")
            .put("creationTimestamp", "2025-12-31T12:00:00Z");
    metadata.putObject("labels").put("controller-uid", "p-1");
    if (lastApplied != null) {
      metadata.putObject("annotations").put(Preserved.LAST_APPLIED, lastApplied).put("team", "db");
    }
    metadata
        .putArray("ownerReferences")
        .addObject()
        .put("kind", "PostgresCluster")
        .put("name", "pg");
    metadata.putArray("managedFields").addObject().put("manager", "metacontroller");
    service.putObject("spec").put("type", "ClusterIP").put("clusterIP", "10.96.0.7");
    service.putObject("status").putObject("loadBalancer");
    return service;
  }

  @Test
  void returnsWhatMetacontrollerLastApplied() {
    String applied =
        "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"pg-rw\",\"namespace\":\"shop\"},"
            + "\"spec\":{\"type\":\"ClusterIP\"}}";
    assertThat(Preserved.child(observedService(applied)).toString()).isEqualTo(applied);
  }

  @Test
  void withoutLastAppliedReturnsTheObjectWithoutStatusAndServerMetadata() {
    ObjectNode stripped = Preserved.child(observedService(null));
    assertThat(stripped)
        .isEqualTo(
            json(
                "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"pg-rw\","
                    + "\"namespace\":\"shop\",\"labels\":{\"controller-uid\":\"p-1\"}},\"spec\":{\"type\":\"ClusterIP\",\"clusterIP\":\"10.96.0.7\"}}"));
  }

  @Test
  void anUnreadableOrForeignLastAppliedIsIgnored() {
    assertThat(Preserved.child(observedService("{not json")).path("metadata").has("uid")).isFalse();
    ObjectNode other =
        Preserved.child(
            observedService(
                "{\"apiVersion\":\"v1\",\"kind\":\"Service\",\"metadata\":{\"name\":\"other\"}}"));
    assertThat(other.path("metadata").path("name").asText()).isEqualTo("pg-rw");
    assertThat(other.path("metadata").path("annotations")).isEqualTo(json("{\"team\":\"db\"}"));
    assertThat(other.has("status")).isFalse();
  }

  @Test
  void neverChangesTheObservedObject() {
    ObjectNode observed = observedService(null);
    String before = observed.toString();
    Preserved.child(observed);
    assertThat(observed.toString()).isEqualTo(before);
  }
}
