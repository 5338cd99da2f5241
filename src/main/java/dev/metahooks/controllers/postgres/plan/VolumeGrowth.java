package dev.metahooks.controllers.postgres.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.spec.ClusterSpec;
import dev.metahooks.controllers.postgres.spec.Quantities;
import dev.metahooks.kube.FieldProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A larger {@code spec.storage.size}: every member's data claim grows. A StatefulSet's claim templates are
 * immutable, so the claims are patched and the StatefulSet re-created around its pods: a resize Job patches each
 * claim's request, then deletes the StatefulSet with {@code propagationPolicy: Orphan} (its pods keep running);
 * until then the StatefulSet is answered with the claim template it has, afterwards with the new one, and the new
 * StatefulSet adopts the pods (same selector, same pod template: nothing restarts). Refused when a claim's
 * StorageClass does not allow expansion. A smaller size is refused by {@link ChangeChecks}.
 */
public final class VolumeGrowth {
  /** The annotation Kubernetes marks the default StorageClass with. */
  public static final String DEFAULT_CLASS = "storageclass.kubernetes.io/is-default-class";

  /**
   * @param size the size the claims grow to
   * @param templateSize the data claim template the StatefulSet is answered with
   * @param claims the claims the resize Job patches: every member's data claim
   */
  public record Plan(String size, String templateSize, List<String> claims) {
    public static Plan none(String size) {
      return new Plan(size, size, List.of());
    }

    /** The StatefulSet still has the smaller template: the resize Job runs. */
    public boolean resizing() {
      return !templateSize.equals(size);
    }
  }

  /** The plan, or what stops the growth (naming the StorageClasses). */
  public record Decision(Plan plan, Optional<FieldProblem> problem) {}

  private VolumeGrowth() {}

  /**
   * Growth is considered only when the spec's size is above the observed StatefulSet's claim template; only then
   * are the claims and StorageClasses read, and required in the request. Without a StatefulSet (a new cluster, or
   * one the resize Job has just deleted, after patching the claims) the template has the spec's size.
   */
  public static Decision decide(ClusterSpec spec, ObservedCluster observed) {
    String size = spec.storage().size();
    Optional<String> deployed = observed.deployedStorageSize().filter(Quantities::valid);
    if (deployed.isEmpty() || !below(deployed.get(), size)) {
      return new Decision(Plan.none(size), Optional.empty());
    }
    if (observed.hookVersionV1()) {
      return new Decision(
          Plan.none(size),
          Optional.of(
              new FieldProblem(
                  "spec.storage.size",
                  "cannot grow from "
                      + deployed.get()
                      + " to "
                      + size
                      + " under hook version v1: StorageClasses are cluster-scoped, and v1 "
                      + "relates only objects of the cluster's namespace (the shipped controller uses v2)")));
    }
    observed.requireVolumeGroups();
    List<String> claims = new ArrayList<>();
    List<String> refusing = new ArrayList<>();
    // The class new claims get (a member added while growing, or none made yet), then each claim's
    // own.
    String templateClass =
        Optional.ofNullable(spec.storage().storageClassName())
            .orElseGet(() -> defaultClass(observed));
    if (!expands(observed, templateClass)) {
      refusing.add(templateClass);
    }
    for (ObjectNode claim : observed.dataClaims()) {
      // Every member's claim, those already grown too: the Job's list stays the same while it
      // patches them.
      claims.add(Names.of(claim));
      String className = className(claim, observed);
      if (!expands(observed, className) && !refusing.contains(className)) {
        refusing.add(className);
      }
    }
    Plan plan = new Plan(size, deployed.get(), List.copyOf(claims));
    if (!refusing.isEmpty()) {
      return new Decision(
          plan,
          Optional.of(
              new FieldProblem(
                  "spec.storage.size",
                  "cannot grow from "
                      + deployed.get()
                      + " to "
                      + size
                      + ": StorageClass "
                      + String.join(", ", refusing)
                      + " does not allow volume expansion (allowVolumeExpansion is not true)")));
    }
    return new Decision(plan, Optional.empty());
  }

  /** The claim's class: its own, or the default class (the API server gives a claim without one the default). */
  private static String className(JsonNode claim, ObservedCluster observed) {
    JsonNode own = claim.path("spec").path("storageClassName");
    if (own.isTextual()) {
      return own.asText();
    }
    return defaultClass(observed);
  }

  private static String defaultClass(ObservedCluster observed) {
    return observed.defaultStorageClass().map(Names::of).orElse("(none: no default class)");
  }

  private static boolean expands(ObservedCluster observed, String className) {
    return observed
        .storageClass(className)
        .map(c -> c.path("allowVolumeExpansion").booleanValue())
        .orElse(false);
  }

  static boolean below(String a, String b) {
    return Quantities.bytes(a).compareTo(Quantities.bytes(b)) < 0;
  }
}
