package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.catset.CatSetSpec.ClaimTemplate;
import java.util.ArrayList;
import java.util.List;

/**
 * The PersistentVolumeClaims of a CatSet: {@code <template>-<catset>-<i>} for every ordinal below replicas,
 * plus the observed ones above it, which are kept after a scale down and only go with the CatSet.
 */
final class CatSetClaims {
  /** More claims than this in one answer is a typo in {@code spec.replicas}, not a workload. */
  static final int MAX_CLAIMS = 100_000;

  private CatSetClaims() {}

  /** Per template, in order: claims 0..replicas-1, then retained observed claims, in the request's order. */
  static List<ObjectNode> desired(CompositeRequest request, CatSetSpec spec) {
    List<ObjectNode> claims = new ArrayList<>();
    if (spec.claimTemplates() == null || spec.claimTemplates().isEmpty()) {
      return claims;
    }
    CatSetSpec.Replicas replicas = spec.replicas();
    double perTemplate = Math.max(0, Math.ceil(replicas.value()));
    if (perTemplate * spec.claimTemplates().size() > MAX_CLAIMS) {
      throw new InvalidRequestException("parent.spec.replicas",
          "would need more than " + MAX_CLAIMS + " PersistentVolumeClaims");
    }
    List<ObjectNode> observed = request.children().list("v1", "PersistentVolumeClaim");
    String catsetName = request.name();
    for (ClaimTemplate template : spec.claimTemplates()) {
      String baseName = template.name() + "-" + catsetName;
      for (int i = 0; replicas.exceeds(i); i++) {
        claims.add(build(template, baseName + "-" + i));
      }
      for (ObjectNode claim : observed) {
        String name = claim.path("metadata").path("name").textValue();
        // A name that starts with the base name but has no ordinal of it counts as ordinal -1 upstream, so
        // a negative replicas keeps that claim too.
        if (name.startsWith(baseName)
            && replicas.reachedBy(CatSetPods.ordinal(baseName, name).orElse(-1))) {
          claims.add(build(template, name));
        }
      }
    }
    return claims;
  }

  /** The claim template, copied whole, under the given name. */
  static ObjectNode build(ClaimTemplate template, String name) {
    ObjectNode claim = Json.object().put("apiVersion", "v1").put("kind", "PersistentVolumeClaim");
    template.template().fields().forEachRemaining(field -> {
      if (!field.getKey().equals("apiVersion") && !field.getKey().equals("kind")) {
        claim.set(field.getKey(), JsValues.copy(field.getValue()));
      }
    });
    ((ObjectNode) claim.get("metadata")).put("name", name);
    return claim;
  }
}
