package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.AnswerSize;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.controllers.catset.CatSetSpec.ClaimTemplate;
import dev.metahooks.kube.PathCopies;
import java.util.ArrayList;
import java.util.List;

/**
 * The PersistentVolumeClaims of a CatSet: {@code <template>-<catset>-<i>} for every ordinal below replicas,
 * plus the observed ones above it, which are kept after a scale down and only go with the CatSet.
 */
final class CatSetClaims {
  private CatSetClaims() {}

  /** Adds the claims {@link #desired} would build: per template, replicas plus the observed ones it may keep. */
  static void estimate(AnswerSize.Estimate size, CompositeRequest request, CatSetSpec spec) {
    if (spec.claimTemplates() == null) {
      return;
    }
    // As a double, so that a replicas of 1e300 saturates instead of overflowing; NaN builds no
    // claim.
    long perTemplate =
        (long)
            (Math.max(0, Math.ceil(spec.replicas().value()))
                + request.children().list("v1", "PersistentVolumeClaim").size());
    for (int i = 0; i < spec.claimTemplates().size(); i++) {
      size.add(
          "parent.spec.volumeClaimTemplates[" + i + "]",
          "parent.spec.replicas",
          perTemplate,
          spec.claimTemplates().get(i).template());
    }
  }

  /** Per template, in order: claims 0..replicas-1, then retained observed claims, in the request's order. */
  static List<ObjectNode> desired(CompositeRequest request, CatSetSpec spec) {
    List<ObjectNode> claims = new ArrayList<>();
    if (spec.claimTemplates() == null || spec.claimTemplates().isEmpty()) {
      return claims;
    }
    CatSetSpec.Replicas replicas = spec.replicas();
    List<ObjectNode> observed = request.children().list("v1", "PersistentVolumeClaim");
    String catsetName = request.name();
    for (ClaimTemplate claimTemplate : spec.claimTemplates()) {
      String baseName = claimTemplate.name() + "-" + catsetName;
      ObjectNode template =
          (ObjectNode) JsValues.copy(claimTemplate.template()); // as upstream copies it, once
      for (int i = 0; replicas.exceeds(i); i++) {
        claims.add(build(template, baseName + "-" + i));
      }
      for (ObjectNode claim : observed) {
        String name = claim.path("metadata").path("name").textValue();
        // A name that starts with the base name but has no ordinal of it counts as ordinal -1
        // upstream, so
        // a negative replicas keeps that claim too.
        if (name.startsWith(baseName)
            && replicas.reachedBy(CatSetPods.ordinal(baseName, name).orElse(-1))) {
          claims.add(build(template, name));
        }
      }
    }
    return claims;
  }

  /** The claim template under the given name: its metadata its own, the rest shared ({@link PathCopies}). */
  static ObjectNode build(ObjectNode template, String name) {
    ObjectNode claim = PathCopies.of("v1", "PersistentVolumeClaim", template);
    PathCopies.object(claim, "metadata").put("name", name);
    return claim;
  }
}
