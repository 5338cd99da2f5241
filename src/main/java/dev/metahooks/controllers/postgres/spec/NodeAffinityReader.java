package dev.metahooks.controllers.postgres.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.kube.FieldReader;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A NodeAffinity as the API server checks it (kubernetes pkg/apis/core/validation/validation.go:
 * {@code ValidateNodeSelector}, {@code ValidateNodeSelectorRequirement}, {@code validateNodeFieldSelectorRequirement},
 * {@code ValidatePreferredSchedulingTerms}): required terms (at least one; a node matching any term fits), preferred
 * terms with a weight of 1 to 100. A term with no requirement matches no node, so it is refused rather than passed on
 * to leave the pods pending.
 */
final class NodeAffinityReader {
  static final String REQUIRED = "requiredDuringSchedulingIgnoredDuringExecution";
  static final String PREFERRED = "preferredDuringSchedulingIgnoredDuringExecution";
  static final List<String> OPERATORS =
      List.of("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt");
  static final int MAX_TERMS = 16;

  private NodeAffinityReader() {}

  /** A checked copy of the node affinity, or empty when it has problems (they are reported). */
  static Optional<ObjectNode> read(FieldReader affinity) {
    int before = affinity.problems().size();
    PodSchedulingReader.onlyFields(affinity, Set.of(REQUIRED, PREFERRED));
    if (affinity.isSet(REQUIRED)) {
      FieldReader required = affinity.objectOrEmpty(REQUIRED);
      PodSchedulingReader.onlyFields(required, Set.of("nodeSelectorTerms"));
      List<FieldReader> terms = required.optionalObjects("nodeSelectorTerms");
      if (terms.isEmpty() || terms.size() > MAX_TERMS) {
        required.report("nodeSelectorTerms", "must have 1 to " + MAX_TERMS + " terms");
      }
      terms.forEach(NodeAffinityReader::term);
    }
    List<FieldReader> preferred = affinity.optionalObjects(PREFERRED);
    if (preferred.size() > MAX_TERMS) {
      affinity.report(PREFERRED, "must have at most " + MAX_TERMS + " terms");
    }
    for (FieldReader weighted : preferred) {
      PodSchedulingReader.onlyFields(weighted, Set.of("weight", "preference"));
      if (!weighted.isSet("weight")) {
        weighted.report("weight", "is required (1 to 100)");
      }
      weighted.optionalInteger("weight", 1, 100);
      if (!weighted.isSet("preference")) {
        weighted.report("preference", "is required (a node selector term)");
      }
      term(weighted.objectOrEmpty("preference"));
    }
    if (affinity.node().isEmpty()) {
      affinity.problems().add(affinity.path(), "needs " + REQUIRED + " and/or " + PREFERRED);
    }
    return affinity.problems().size() == before
        ? Optional.of(affinity.node().deepCopy())
        : Optional.empty();
  }

  private static void term(FieldReader term) {
    PodSchedulingReader.onlyFields(term, Set.of("matchExpressions", "matchFields"));
    List<FieldReader> expressions = term.optionalObjects("matchExpressions");
    List<FieldReader> fields = term.optionalObjects("matchFields");
    if (expressions.isEmpty() && fields.isEmpty()) {
      term.problems()
          .add(term.path(), "needs matchExpressions or matchFields: an empty term matches no node");
    }
    expressions.forEach(NodeAffinityReader::labelRequirement);
    fields.forEach(NodeAffinityReader::fieldRequirement);
  }

  private static void labelRequirement(FieldReader requirement) {
    PodSchedulingReader.onlyFields(requirement, Set.of("key", "operator", "values"));
    String key = requirement.requiredString("key");
    if (!key.isEmpty() && QualifiedNames.keyProblem(key) != null) {
      requirement.report("key", QualifiedNames.keyProblem(key));
    }
    if (!requirement.isSet("operator")) {
      requirement.report("operator", "is required (" + String.join(", ", OPERATORS) + ")");
    }
    String operator = requirement.optionalOneOf("operator", OPERATORS).orElse("");
    List<String> values = requirement.optionalStringList("values");
    switch (operator) {
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          requirement.report("values", "must not be empty for operator " + operator);
        }
      }
      case "Exists", "DoesNotExist" -> {
        if (!values.isEmpty()) {
          requirement.report("values", "must be empty for operator " + operator);
        }
      }
      case "Gt", "Lt" -> {
        if (values.size() != 1 || !values.get(0).matches("-?[0-9]{1,18}")) {
          requirement.report("values", "must be one integer for operator " + operator);
        }
      }
      default -> {} // the operator's problem is reported
    }
  }

  /** matchFields: only {@code metadata.name}, with In or NotIn and exactly one value. */
  private static void fieldRequirement(FieldReader requirement) {
    PodSchedulingReader.onlyFields(requirement, Set.of("key", "operator", "values"));
    JsonNode key = requirement.get("key");
    if (key == null || !"metadata.name".equals(key.asText())) {
      requirement.report("key", "must be metadata.name (the only node field a term can match)");
    }
    if (!requirement.isSet("operator")) {
      requirement.report("operator", "is required (In or NotIn)");
    }
    requirement.optionalOneOf("operator", List.of("In", "NotIn"));
    if (requirement.optionalStringList("values").size() != 1) {
      requirement.report("values", "must be exactly one node name");
    }
  }
}
