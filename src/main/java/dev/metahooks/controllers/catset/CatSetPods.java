package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.catset.CatSetSpec.ClaimTemplate;
import dev.metahooks.kube.FieldReader;
import dev.metahooks.kube.PathCopies;
import java.util.List;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Pods of a CatSet: {@code <catset>-<ordinal>}, built from {@code spec.template}, and their readiness. */
final class CatSetPods {
  /** {@code ^(.*)-(\d+)$} as JavaScript reads it: '.' stops only at JavaScript's line terminators. */
  private static final Pattern ORDINAL = Pattern.compile("([^\\n\\r\\u2028\\u2029]*)-([0-9]+)");

  private CatSetPods() {}

  /**
   * The ordinal of {@code name} as a member of {@code baseName}, empty if it is not one. The digits are read
   * as a JavaScript number, so {@code web-007} is ordinal 7 and very long ordinals lose precision.
   */
  static OptionalDouble ordinal(String baseName, String name) {
    Matcher match = ORDINAL.matcher(name);
    if (match.matches() && match.group(1).equals(baseName)) {
      return OptionalDouble.of(Double.parseDouble(match.group(2)));
    }
    return OptionalDouble.empty();
  }

  /** The Pod name for an ordinal, printed as JavaScript prints the number. */
  static String name(String catsetName, double ordinal) {
    return catsetName + "-" + JsValues.numberToString(ordinal);
  }

  /**
   * Running, not being deleted, and the first {@code Ready} condition is {@code "True"}. Malformed status
   * parts (which the API server never sends) count as not ready rather than failing the sync.
   */
  static boolean runningAndReady(ObjectNode pod) {
    if (pod == null) {
      return false;
    }
    JsonNode status = pod.get("status");
    if (status == null
        || !status.isObject()
        || !"Running".equals(status.path("phase").textValue())) {
      return false;
    }
    if (JsValues.truthy(pod.path("metadata").get("deletionTimestamp"))) {
      return false;
    }
    JsonNode conditions = status.get("conditions");
    if (conditions == null || !conditions.isArray()) {
      return false;
    }
    for (JsonNode condition : conditions) {
      if (condition.isObject() && "Ready".equals(condition.path("type").textValue())) {
        return "True".equals(condition.path("status").textValue());
      }
    }
    return false;
  }

  /**
   * {@code spec.template} as upstream copies it into every Pod ({@code JSON.parse(JSON.stringify(...))}), made
   * once per sync: the Pods {@link #build} from it share it.
   */
  static ObjectNode template(CatSetSpec spec) {
    return (ObjectNode) JsValues.copy(spec.template());
  }

  /**
   * The desired Pod: the {@link #template}, named {@code <catset>-<ordinal>} with that hostname, the governing
   * service as subdomain, and one volume per claim template pointing at the Pod's own claim. Its metadata, spec
   * and volumes are its own; every other part is the template's, shared with the other Pods ({@link PathCopies}).
   */
  static ObjectNode build(CatSetSpec spec, ObjectNode template, String podName) {
    ObjectNode pod = PathCopies.of("v1", "Pod", template);
    PathCopies.object(pod, "metadata").put("name", podName);
    ObjectNode podSpec = PathCopies.object(pod, "spec");
    podSpec.put("hostname", podName);
    if (spec.serviceName() == null) {
      podSpec.remove("subdomain"); // upstream assigns undefined, which JSON leaves out
    } else {
      podSpec.set("subdomain", JsValues.copy(spec.serviceName()));
    }
    List<ClaimTemplate> claims = spec.claimTemplates();
    if (claims != null) {
      ArrayNode volumes = volumes(podSpec);
      for (ClaimTemplate claim : claims) {
        ObjectNode volume = volumes.addObject().put("name", claim.name());
        volume.putObject("persistentVolumeClaim").put("claimName", claim.name() + "-" + podName);
      }
    }
    return pod;
  }

  /**
   * The Pod's own list of the template's volumes, to append to; a falsy value starts a new list, as upstream's
   * {@code || []} does.
   */
  private static ArrayNode volumes(ObjectNode podSpec) {
    JsonNode volumes = podSpec.get("volumes");
    if (!JsValues.truthy(volumes)) {
      return podSpec.putArray("volumes");
    }
    FieldReader.of(podSpec, "parent.spec.template.spec").requiredArray("volumes");
    return PathCopies.array(podSpec, "volumes");
  }
}
