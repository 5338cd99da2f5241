package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testing.kube.KubeSchema;
import java.util.List;
import java.util.stream.Stream;

/**
 * Schemas of custom resources from other projects that the hooks may render (the PodMonitor of the Prometheus
 * Operator) or the manifests install (its PrometheusRule), kept as test resources under {@code crds/}: an object of such a kind is checked against its CRD, any
 * other against the built-in model ({@link KubeSchema}).
 */
public final class ThirdPartyCrds {
  private static final List<JsonNode> CRDS =
      Stream.of("podmonitors", "prometheusrules")
          .flatMap(
              plural ->
                  Manifests.read(Resources.path("crds/" + plural + ".monitoring.coreos.com.yaml"))
                      .stream())
          .toList();

  private ThirdPartyCrds() {}

  /** Fails the test unless the object fits its kind's schema: a third-party CRD's, else the built-in model. */
  public static void assertValid(JsonNode object) {
    String apiVersion = object.path("apiVersion").asText();
    for (JsonNode crd : CRDS) {
      JsonNode spec = crd.path("spec");
      if (apiVersion.startsWith(spec.path("group").asText() + "/")
          && spec.at("/names/kind").asText().equals(object.path("kind").asText())) {
        CrdSchema.of(crd, apiVersion.substring(apiVersion.indexOf('/') + 1)).assertValid(object);
        return;
      }
    }
    KubeSchema.assertValid(object);
  }
}
