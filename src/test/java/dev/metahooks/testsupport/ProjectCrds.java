package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.testing.kube.CrdSchema;
import dev.metahooks.testing.kube.Crds;
import java.util.List;

/** The CRDs of this project ({@code manifests/crds}), for the tests of its own controllers and manifests. */
public final class ProjectCrds {
  public static final Crds CRDS = Crds.from(Manifests.CRDS);

  private ProjectCrds() {}

  public static CrdSchema forKind(String apiVersion, String kind) {
    return CRDS.schemaOf(apiVersion, kind);
  }

  public static CrdSchema forObject(JsonNode object) {
    return CRDS.schemaOf(object);
  }

  public static boolean knows(JsonNode object) {
    return CRDS.knows(object);
  }

  public static List<? extends JsonNode> crds() {
    return CRDS.all();
  }

  public static JsonNode crdOf(String apiVersion, String kind) {
    return CRDS.crdOf(apiVersion, kind).orElse(null);
  }
}
