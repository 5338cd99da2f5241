package dev.metahooks.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import org.junit.jupiter.api.Test;

/** A finalize call is refused unless Metacontroller would make it: the parent is deleted or no longer selected. */
class FinalizeCallTest {
  private static final String DELETED = ", 'deletionTimestamp': '2026-11-30T10:00:00Z'";

  private static ObjectNode json(String text) {
    try {
      return (ObjectNode) JsonTrees.MAPPER.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static CompositeRequest composite(String parentResource, String metadata) {
    return CompositeRequest.read(
        json(
            "{'controller': {'spec': {'parentResource': "
                + parentResource
                + "}},"
                + " 'parent': {'apiVersion': 'metahooks.dev/v1alpha1', 'kind': 'PostgresCluster',"
                + " 'metadata': {'name': 'db', 'namespace': 'shop'"
                + metadata
                + "}},"
                + " 'children': {'Secret.v1': {}}, 'finalizing': true}"),
        Hook.SYNC);
  }

  private static DecoratorRequest decorator(String apiVersion, String metadata) {
    return DecoratorRequest.read(
        json(
            "{'controller': {'spec': {'resources': [{'apiVersion': 'apps/v1',"
                + " 'resource': 'statefulsets', 'labelSelector': {'matchLabels': {'tier': 'web'}},"
                + " 'annotationSelector': {'matchExpressions': [{'key': 'service-per-pod-label', 'operator': 'Exists'}]}}]}},"
                + " 'object': {'apiVersion': '"
                + apiVersion
                + "', 'kind': 'StatefulSet',"
                + " 'metadata': {'name': 'nginx', 'namespace': 'shop'"
                + metadata
                + "}},"
                + " 'attachments': {'Service.v1': {}}}"),
        Hook.FINALIZE);
  }

  @Test
  void aCompositeParentThatIsNeitherDeletedNorDeselectedIsRefused() {
    assertThatThrownBy(() -> composite("{'apiVersion': 'metahooks.dev/v1alpha1'}", ""))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("parent.metadata.deletionTimestamp");
    assertThatThrownBy(
            () ->
                composite(
                    "{'labelSelector': {'matchLabels': {'team': 'a'}}}",
                    ", 'labels': {'team': 'a'}"))
        .hasMessageContaining("is missing in a finalize call")
        .hasMessageContaining("spec.parentResource.labelSelector");
    assertThatThrownBy(() -> composite("{'labelSelector': {}}", ""))
        .isInstanceOf(InvalidRequestException.class);
  }

  @Test
  void aDeletedOrDeselectedCompositeParentIsFinalized() {
    assertThat(composite("{}", DELETED).finalizing()).isTrue();
    assertThat(
            composite(
                    "{'labelSelector': {'matchLabels': {'team': 'a'}}}",
                    ", 'labels': {'team': 'b'}")
                .finalizing())
        .isTrue();
    assertThat(
            composite(
                    "{'labelSelector': {'matchExpressions': [{'key': 'team', 'operator': 'NotIn',"
                        + " 'values': ['a']}]}}",
                    ", 'labels': {'team': 'a'}")
                .finalizing())
        .isTrue();
    // A selector Metacontroller could not have used: the call gets the benefit of the doubt.
    assertThat(
            composite(
                    "{'labelSelector': {'matchExpressions': [{'key': 'team', 'operator': 'Near'}]}}",
                    "")
                .finalizing())
        .isTrue();
  }

  @Test
  void aDecoratorTargetIsFinalizedWhenDeletedOrNoLongerSelected() {
    String selected =
        ", 'labels': {'tier': 'web'}, 'annotations': {'service-per-pod-label': 'pod-name'}";
    assertThatThrownBy(() -> decorator("apps/v1", selected))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("object.metadata.deletionTimestamp");
    assertThat(decorator("apps/v1", selected + DELETED).finalizing()).isTrue();
    assertThat(decorator("apps/v1", ", 'labels': {'tier': 'web'}").finalizing())
        .as("annotation removed")
        .isTrue();
    assertThat(decorator("apps/v1", ", 'annotations': {'service-per-pod-label': 'x'}").finalizing())
        .as("label removed")
        .isTrue();
    assertThat(decorator("v1", selected).finalizing())
        .as("a group the controller does not list")
        .isTrue();
  }

  @Test
  void syncCallsNeedNoDeletionTimestamp() {
    assertThatCode(
            () ->
                CompositeRequest.read(
                    json(
                        "{'parent': {'metadata': {'name': 'db', 'namespace': 'shop'}},"
                            + " 'children': {}, 'finalizing': false}"),
                    Hook.SYNC))
        .doesNotThrowAnyException();
  }
}
