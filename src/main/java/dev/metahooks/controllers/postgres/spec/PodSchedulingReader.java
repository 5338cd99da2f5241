package dev.metahooks.controllers.postgres.spec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.kube.FieldReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads {@code spec.scheduling}: for the database pods, the pooler and the Jobs, tolerations, node affinity,
 * topology spread constraints, a priority class and extra labels and annotations. Each field is checked as the API
 * server checks a pod spec (kubernetes pkg/apis/core/validation/validation.go: {@code ValidateTolerations},
 * {@code validateTopologySpreadConstraints}; node affinity in {@link NodeAffinityReader}), so that a mistake is a
 * {@code SpecValid=False} problem naming the field, never a StatefulSet or Job the API server refuses.
 */
public final class PodSchedulingReader {
  public static final int MAX_TOLERATIONS = 32;
  public static final int MAX_SPREAD_CONSTRAINTS = 8;
  public static final List<String> TAINT_EFFECTS =
      List.of("NoSchedule", "PreferNoSchedule", "NoExecute");

  /** Kubernetes admits pods of these classes only in kube-system (the Priority admission plugin). */
  public static final List<String> SYSTEM_PRIORITY_CLASSES =
      List.of("system-node-critical", "system-cluster-critical");

  private static final Set<String> TOLERATION_FIELDS =
      Set.of("key", "operator", "value", "effect", "tolerationSeconds");
  private static final Set<String> SPREAD_FIELDS =
      Set.of(
          "maxSkew",
          "topologyKey",
          "whenUnsatisfiable",
          "labelSelector",
          "minDomains",
          "nodeAffinityPolicy",
          "nodeTaintsPolicy",
          "matchLabelKeys");
  private static final Set<String> BLOCK_FIELDS =
      Set.of(
          "tolerations",
          "nodeAffinity",
          "topologySpreadConstraints",
          "priorityClassName",
          "podLabels",
          "podAnnotations");

  private PodSchedulingReader() {}

  /** {@code spec.scheduling}, every block optional. */
  public static PodScheduling.Scheduling read(FieldReader spec) {
    if (!spec.isSet("scheduling")) {
      return PodScheduling.Scheduling.NONE;
    }
    FieldReader scheduling = spec.objectOrEmpty("scheduling");
    onlyFields(scheduling, Set.of("database", "pooler", "jobs"));
    return new PodScheduling.Scheduling(
        block(scheduling.objectOrEmpty("database")),
        block(scheduling.objectOrEmpty("pooler")),
        block(scheduling.objectOrEmpty("jobs")));
  }

  static PodScheduling block(FieldReader block) {
    if (block.node().isEmpty()) {
      return PodScheduling.NONE;
    }
    onlyFields(block, BLOCK_FIELDS);
    return new PodScheduling(
        tolerations(block),
        block.isSet("nodeAffinity")
            ? NodeAffinityReader.read(block.objectOrEmpty("nodeAffinity"))
            : Optional.empty(),
        spreadConstraints(block),
        priorityClass(block),
        PodMetadataReader.labels(block),
        PodMetadataReader.annotations(block));
  }

  static void onlyFields(FieldReader object, Set<String> allowed) {
    object
        .node()
        .fieldNames()
        .forEachRemaining(
            name -> {
              if (!allowed.contains(name)) {
                object.report(
                    name,
                    "is not a field here ("
                        + String.join(", ", allowed.stream().sorted().toList())
                        + ")");
              }
            });
  }

  private static List<ObjectNode> tolerations(FieldReader block) {
    List<FieldReader> items = block.optionalObjects("tolerations");
    if (items.size() > MAX_TOLERATIONS) {
      block.report("tolerations", "must have at most " + MAX_TOLERATIONS + " items");
    }
    List<ObjectNode> tolerations = new ArrayList<>();
    for (FieldReader toleration : items) {
      int before = toleration.problems().size();
      checkToleration(toleration);
      if (toleration.problems().size() == before) {
        tolerations.add(toleration.node().deepCopy());
      }
    }
    return List.copyOf(tolerations);
  }

  private static void checkToleration(FieldReader toleration) {
    onlyFields(toleration, TOLERATION_FIELDS);
    String key = toleration.optionalString("key").orElse("");
    String operator =
        toleration.optionalOneOf("operator", List.of("Equal", "Exists")).orElse("Equal");
    String value = toleration.optionalString("value").orElse("");
    String effect = toleration.optionalOneOf("effect", TAINT_EFFECTS).orElse("");
    Optional<Long> seconds = toleration.optionalInteger("tolerationSeconds");
    if (!key.isEmpty() && QualifiedNames.keyProblem(key) != null) {
      toleration.report("key", QualifiedNames.keyProblem(key));
    }
    if (key.isEmpty() && !operator.equals("Exists")) {
      toleration.report(
          "operator", "must be Exists when key is empty (a toleration of every taint)");
    }
    if (operator.equals("Exists") && !value.isEmpty()) {
      toleration.report("value", "must be empty when operator is Exists");
    } else if (QualifiedNames.labelValueProblem(value) != null) {
      toleration.report("value", QualifiedNames.labelValueProblem(value));
    }
    if (seconds.isPresent() && !effect.equals("NoExecute")) {
      toleration.report("tolerationSeconds", "is only allowed with effect NoExecute");
    }
  }

  private static List<ObjectNode> spreadConstraints(FieldReader block) {
    List<FieldReader> items = block.optionalObjects("topologySpreadConstraints");
    if (items.size() > MAX_SPREAD_CONSTRAINTS) {
      block.report(
          "topologySpreadConstraints", "must have at most " + MAX_SPREAD_CONSTRAINTS + " items");
    }
    List<ObjectNode> constraints = new ArrayList<>();
    Set<String> pairs = new HashSet<>();
    for (FieldReader constraint : items) {
      int before = constraint.problems().size();
      checkSpread(constraint, pairs);
      if (constraint.problems().size() == before) {
        constraints.add(constraint.node().deepCopy());
      }
    }
    return List.copyOf(constraints);
  }

  private static void checkSpread(FieldReader constraint, Set<String> pairs) {
    onlyFields(constraint, SPREAD_FIELDS);
    if (!constraint.isSet("maxSkew")) {
      constraint.report("maxSkew", "is required");
    }
    constraint.optionalInteger("maxSkew", 1, Integer.MAX_VALUE);
    Optional<String> key = SpecFields.required(constraint, "topologyKey", null, 316);
    key.map(QualifiedNames::keyProblem)
        .ifPresent(problem -> constraint.report("topologyKey", problem));
    if (!constraint.isSet("whenUnsatisfiable")) {
      constraint.report("whenUnsatisfiable", "is required (DoNotSchedule or ScheduleAnyway)");
    }
    String when =
        constraint
            .optionalOneOf("whenUnsatisfiable", List.of("DoNotSchedule", "ScheduleAnyway"))
            .orElse("");
    if (key.isPresent() && !when.isEmpty() && !pairs.add(key.get() + "/" + when)) {
      constraint.report("topologyKey", "is already spread over with whenUnsatisfiable " + when);
    }
    if (constraint.optionalInteger("minDomains", 1, Integer.MAX_VALUE).isPresent()
        && !when.equals("DoNotSchedule")) {
      constraint.report("minDomains", "is only allowed with whenUnsatisfiable DoNotSchedule");
    }
    constraint.optionalOneOf("nodeAffinityPolicy", List.of("Honor", "Ignore"));
    constraint.optionalOneOf("nodeTaintsPolicy", List.of("Honor", "Ignore"));
    Set<String> selected = selectorKeys(constraint.optionalLabelSelector("labelSelector"));
    List<String> matchLabelKeys = constraint.optionalStringList("matchLabelKeys");
    for (int i = 0; i < matchLabelKeys.size(); i++) {
      String labelKey = matchLabelKeys.get(i);
      String problem = QualifiedNames.keyProblem(labelKey);
      if (problem == null && selected.contains(labelKey)) {
        problem = "must not be a key the labelSelector already selects by";
      }
      if (problem != null) {
        constraint.problems().add(constraint.path("matchLabelKeys", i), problem);
      }
    }
  }

  /**
   * The keys a constraint's selector uses, which matchLabelKeys may not repeat (the API server refuses that); without
   * a selector, those of the selector the renderer fills in (instance, name, component).
   */
  private static Set<String> selectorKeys(Optional<ObjectNode> selector) {
    if (selector.isEmpty()) {
      return Set.of(Labels.INSTANCE, Labels.NAME, Labels.COMPONENT);
    }
    Set<String> keys = new HashSet<>();
    selector.get().path("matchLabels").fieldNames().forEachRemaining(keys::add);
    selector
        .get()
        .path("matchExpressions")
        .forEach(expression -> keys.add(expression.path("key").asText()));
    return keys;
  }

  private static Optional<String> priorityClass(FieldReader block) {
    Optional<String> name = block.optionalString("priorityClassName");
    name.map(QualifiedNames::subdomainProblem)
        .ifPresent(problem -> block.report("priorityClassName", problem));
    if (name.filter(SYSTEM_PRIORITY_CLASSES::contains).isPresent()) {
      block.report(
          "priorityClassName",
          "is reserved for pods in kube-system (the API server refuses it elsewhere)");
    }
    return name.filter(
        n -> QualifiedNames.subdomainProblem(n) == null && !SYSTEM_PRIORITY_CLASSES.contains(n));
  }
}
