package dev.metahooks.controllers.indexedjob;

import dev.metahooks.kube.FieldReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import java.math.BigInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The Pods of an IndexedJob: {@code <job>-<index>}, built from {@code spec.template} with {@code JOB_INDEX}. */
final class IndexedJobPods {
  /** {@code ^(.*)-(\d+)$} as Python's re.match reads it: '$' also matches before a final newline. */
  private static final Pattern INDEX = Pattern.compile("(.*)-([0-9]+)\n?", Pattern.UNIX_LINES);

  private IndexedJobPods() {}

  /** The index of {@code podName} as a Pod of {@code jobName} ({@code job-007} is index 7), null if none. */
  static BigInteger index(String jobName, String podName) {
    Matcher match = INDEX.matcher(podName);
    if (match.matches() && match.group(1).equals(jobName)) {
      return new BigInteger(match.group(2));
    }
    return null;
  }

  /**
   * The desired Pod for an index: the template copied whole, named {@code <job>-<index>}, with
   * {@code JOB_INDEX=<index>} appended to every container's env.
   */
  static ObjectNode build(ObjectNode job, String jobName, BigInteger index) {
    ObjectNode template = template(job);
    ObjectNode pod = Json.object().put("apiVersion", "v1").put("kind", "Pod");
    template.fields().forEachRemaining(field -> {
      if (!field.getKey().equals("apiVersion") && !field.getKey().equals("kind")) {
        pod.set(field.getKey(), field.getValue().deepCopy());
      }
    });
    if (!pod.has("metadata")) {
      pod.putObject("metadata");
    }
    FieldReader copy = FieldReader.of(pod, "parent.spec.template");
    copy.object("metadata").node().put("name", jobName + "-" + index);
    for (FieldReader container : copy.object("spec").requiredObjects("containers")) {
      ArrayNode env = container.optionalArray("env").orElseGet(() -> container.node().putArray("env"));
      env.addObject().put("name", "JOB_INDEX").put("value", index.toString());
    }
    return pod;
  }

  /** {@code spec.template}, which every Pod copies. */
  static ObjectNode template(ObjectNode job) {
    return FieldReader.requiredSpec(job).object("template").node();
  }
}
