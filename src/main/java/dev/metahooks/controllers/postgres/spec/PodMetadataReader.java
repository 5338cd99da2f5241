package dev.metahooks.controllers.postgres.spec;

import dev.metahooks.controllers.postgres.base.Labels;
import dev.metahooks.kube.FieldReader;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code podLabels} and {@code podAnnotations} of a scheduling block: added to the pod template, never in place of
 * what the operator, Patroni or Kubernetes' controllers put there and select by.
 */
public final class PodMetadataReader {
  public static final int MAX_ENTRIES = 32;

  /** The most bytes of annotations a block may add (the API server allows 256 KiB for all of a pod's). */
  public static final int MAX_ANNOTATION_BYTES = 64 * 1024;

  /**
   * Label keys the extra labels may not set: the operator's (Services, the StatefulSet, the pooler's Deployment, the
   * NetworkPolicy and Patroni select by them), Patroni's role label, and those Kubernetes' controllers set on the
   * pods they make (StatefulSet, Deployment, Job).
   */
  public static final List<String> RESERVED_LABELS =
      List.of(
          Labels.NAME,
          Labels.INSTANCE,
          Labels.MANAGED_BY,
          Labels.COMPONENT,
          Labels.CLUSTER_NAME,
          Labels.ROLE,
          "controller-revision-hash",
          "pod-template-hash",
          "job-name",
          "controller-uid");

  /** Label key prefixes Kubernetes' controllers set (statefulset.kubernetes.io/pod-name, batch.kubernetes.io/job-name, ...). */
  public static final List<String> RESERVED_LABEL_PREFIXES =
      List.of("statefulset.kubernetes.io/", "apps.kubernetes.io/", "batch.kubernetes.io/");

  /** The operator's own annotations (the pooler's configuration hash) live under this prefix. */
  public static final String RESERVED_ANNOTATION_PREFIX = "metahooks.dev/";

  private PodMetadataReader() {}

  static Map<String, String> labels(FieldReader block) {
    Map<String, String> labels = new TreeMap<>();
    strings(block, "podLabels")
        .forEach(
            (key, value) -> {
              String path = block.path("podLabels") + "['" + key + "']";
              String problem = QualifiedNames.keyProblem(key);
              if (problem == null && reservedLabel(key)) {
                problem =
                    "is a label the operator or Kubernetes sets and selects pods by; it cannot be set or overridden";
              }
              if (problem == null) {
                problem = QualifiedNames.labelValueProblem(value);
              }
              if (problem != null) {
                block.problems().add(path, problem);
              } else {
                labels.put(key, value);
              }
            });
    return Collections.unmodifiableMap(labels);
  }

  static Map<String, String> annotations(FieldReader block) {
    Map<String, String> annotations = new TreeMap<>();
    int bytes = 0;
    for (Map.Entry<String, String> entry : strings(block, "podAnnotations").entrySet()) {
      String key = entry.getKey();
      String problem = QualifiedNames.keyProblem(key);
      if (problem == null && key.startsWith(RESERVED_ANNOTATION_PREFIX)) {
        problem = "is under " + RESERVED_ANNOTATION_PREFIX + ", the operator's own annotations";
      }
      if (problem != null) {
        block.problems().add(block.path("podAnnotations") + "['" + key + "']", problem);
      } else {
        annotations.put(key, entry.getValue());
        bytes += key.length() + entry.getValue().length();
      }
    }
    if (bytes > MAX_ANNOTATION_BYTES) {
      block.report("podAnnotations", "must be at most " + MAX_ANNOTATION_BYTES + " bytes in all");
    }
    return Collections.unmodifiableMap(annotations);
  }

  public static boolean reservedLabel(String key) {
    return RESERVED_LABELS.contains(key)
        || RESERVED_LABEL_PREFIXES.stream().anyMatch(key::startsWith);
  }

  private static Map<String, String> strings(FieldReader block, String field) {
    if (!block.isSet(field)) {
      return Map.of();
    }
    Map<String, String> entries = new TreeMap<>();
    block
        .requiredStringMap(field)
        .properties()
        .forEach(e -> entries.put(e.getKey(), e.getValue().asText()));
    if (entries.size() > MAX_ENTRIES) {
      block.report(field, "must have at most " + MAX_ENTRIES + " entries");
    }
    return entries;
  }
}
