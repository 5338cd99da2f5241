package dev.metahooks.controllers.indexedjob;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.kube.FieldReader;
import dev.metahooks.kube.PathCopies;
import java.math.BigInteger;
import java.util.List;
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
   * The desired Pod for an index: the template, named {@code <job>-<index>}, with {@code JOB_INDEX=<index>}
   * appended to every container's env. Its metadata, spec, containers and their env are its own; every other part
   * is the template's, shared with the other Pods ({@link PathCopies}).
   */
  static ObjectNode build(ObjectNode job, String jobName, BigInteger index) {
    ObjectNode pod = PathCopies.of("v1", "Pod", template(job));
    if (!pod.has("metadata")) {
      pod.putObject("metadata");
    }
    FieldReader read = FieldReader.of(pod, "parent.spec.template");
    read.object("metadata");
    List<FieldReader> containers = read.object("spec").requiredObjects("containers");
    PathCopies.object(pod, "metadata").put("name", jobName + "-" + index);
    ArrayNode ownContainers = PathCopies.array(PathCopies.object(pod, "spec"), "containers");
    for (int i = 0; i < containers.size(); i++) {
      boolean hasEnv = containers.get(i).optionalArray("env").isPresent();
      ObjectNode container = PathCopies.object(ownContainers, i);
      ArrayNode env = hasEnv ? PathCopies.array(container, "env") : container.putArray("env");
      env.addObject().put("name", "JOB_INDEX").put("value", index.toString());
    }
    return pod;
  }

  /** {@code spec.template}, which every Pod copies. */
  static ObjectNode template(ObjectNode job) {
    return FieldReader.requiredSpec(job).object("template").node();
  }
}
