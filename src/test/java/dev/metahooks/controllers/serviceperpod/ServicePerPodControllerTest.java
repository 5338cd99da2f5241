package dev.metahooks.controllers.serviceperpod;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.testsupport.HookAnswers;
import dev.metahooks.testsupport.Resources;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ServicePerPodControllerTest {
  private static final String SYNC =
      "fixtures/service-per-pod/sync/01-v1-first-sync-three-replicas.request.json";
  private static final String FINALIZE =
      "fixtures/service-per-pod/finalize/01-v1-opted-out-services-left.request.json";

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "80:8080          | [{\"name\":\"port-80\",\"port\":80,\"targetPort\":8080}]",
        "080:08080        | [{\"name\":\"port-80\",\"port\":80,\"targetPort\":8080}]",
        "-1:80            | [{\"name\":\"port--1\",\"port\":-1,\"targetPort\":80}]",
        "80:8080:udp      | [{\"name\":\"port-80\",\"port\":80,\"targetPort\":8080}]",
        "80:80,80:80      | [{\"name\":\"port-80\",\"port\":80,\"targetPort\":80},{\"name\":\"port-80\",\"port\":80,\"targetPort\":80}]",
        "12345678901234567891:1 | [{\"name\":\"port-12345678901234567168\",\"port\":12345678901234567168,\"targetPort\":1}]"
      })
  void portsReadAsJsonnetReadsThem(String annotation, String expected) {
    assertThat(ServicePorts.parse(annotation).toString()).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"", "80", "80:", ":80", "http:80", "80 :80", "+80:80", "80:80,", "-:80", "1e3:80"})
  void malformedPortsAreRefused(String annotation) {
    assertThatThrownBy(() -> ServicePorts.parse(annotation))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("object.metadata.annotations['service-per-pod-ports']");
  }

  @Test
  void missingLabelAnnotationIsRefused() {
    assertRefused(
        SYNC,
        "sync",
        r -> ((ObjectNode) r.at("/object/metadata/annotations")).remove("service-per-pod-label"),
        "object.metadata.annotations['service-per-pod-label']");
  }

  @Test
  void negativeReplicasAreRefused() {
    assertRefused(
        SYNC,
        "sync",
        r -> ((ObjectNode) r.at("/object/spec")).put("replicas", -1),
        "object.spec.replicas");
  }

  @Test
  void fractionalReplicasAreRefused() {
    assertRefused(
        SYNC,
        "sync",
        r -> ((ObjectNode) r.at("/object/spec")).put("replicas", 1.5),
        "object.spec.replicas");
  }

  @Test
  void finalizeWithoutServiceGroupIsRefused() {
    assertRefused(
        FINALIZE,
        "finalize",
        r -> ((ObjectNode) r.get("attachments")).remove("Service.v1"),
        "attachments['Service.v1']");
  }

  private static void assertRefused(
      String fixture, String hook, Consumer<ObjectNode> breakIt, String field) {
    ObjectNode request = Resources.readObject(Resources.path(fixture));
    breakIt.accept(request);
    HookAnswers.Answer answer =
        HookAnswers.call("service-per-pod", hook, request.toString().getBytes());
    assertThat(answer.status()).as(answer.body().toString()).isEqualTo(422);
    assertThat(answer.body().path("field").asText()).isEqualTo(field);
  }
}
