package dev.metahooks.controllers.indexedjob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.AnswerSize;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.api.ObjectMap;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * IndexedJob ({@code ctl.enisoc.com/v1}) of Metacontroller's examples: a Job whose Pods {@code <name>-<index>}
 * each get their index in {@code JOB_INDEX}. Up to {@code parallelism} Pods run at once until
 * {@code completions} indexes have succeeded. Once the parent's status says Complete or Failed, the Pods
 * that exist are kept as they are and the status is left unchanged.
 */
public final class IndexedJobController {
  private IndexedJobController() {}

  public static Controller controller() {
    return Controller.composite("indexedjob")
        .sync(IndexedJobController::sync)
        // Of observed Pods the hook reads the index in the name and the phase; it never re-emits
        // them.
        .reads("v1", "Pod", "status.phase")
        .build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    ObjectNode job = request.parent();
    String name = request.name();

    // Pods of this job by index (web-1 and web-01 are both index 1), counted by phase.
    NavigableSet<BigInteger> observed = new TreeSet<>();
    int active = 0;
    int succeeded = 0;
    int failed = 0;
    for (ObjectMap.Entry pod : request.children().entries("v1", "Pod")) {
      BigInteger index = IndexedJobPods.index(name, pod.name());
      if (index == null) {
        continue;
      }
      switch (phase(pod.object())) {
        case "Succeeded" -> succeeded++;
        case "Failed" -> failed++;
        default -> active++;
      }
      observed.add(index);
    }

    if (finished(job)) {
      // Stop managing: keep the Pods there are (Pod GC may remove them) and the status as it is.
      if (!observed.isEmpty()) {
        checkSize("children['Pod.v1']", observed.size(), podBytes(job));
      }
      List<ObjectNode> pods = new ArrayList<>();
      for (BigInteger index : observed) {
        pods.add(IndexedJobPods.build(job, name, index));
      }
      return CompositeResponse.of(job.get("status").deepCopy(), pods);
    }

    IndexedJobSpec spec = IndexedJobSpec.read(job);
    ObjectNode status =
        Json.object().put("active", active).put("succeeded", succeeded).put("failed", failed);
    status
        .putArray("conditions")
        .addObject()
        .put("type", "Complete")
        .put("status", spec.completedBy(succeeded) ? "True" : "False");

    NavigableSet<BigInteger> desired = new TreeSet<>(observed);
    long count = spec.count();
    // Each Pod is a copy of the template: stop adding indexes once the answer could not hold them.
    // The template
    // is read only when there is a Pod to build, as building reads it.
    long podBytes = observed.isEmpty() ? -1 : podBytes(job);
    long maxPods = podBytes < 0 ? Long.MAX_VALUE : AnswerSize.maxItems(podBytes);
    if (observed.size() > maxPods) {
      checkSize("children['Pod.v1']", observed.size(), podBytes);
    }
    for (long i = 0; i < count && spec.allowsMore(active); i++) {
      if (desired.add(BigInteger.valueOf(i))) {
        active++;
        if (podBytes < 0) {
          podBytes = podBytes(job);
          maxPods = AnswerSize.maxItems(podBytes);
        }
        if (desired.size() > maxPods) {
          // parallelism is what lets them all start at once
          checkSize("parent.spec.parallelism", desired.size(), podBytes);
        }
      }
    }
    List<ObjectNode> pods = new ArrayList<>(desired.size());
    for (BigInteger index : desired) {
      pods.add(IndexedJobPods.build(job, name, index));
    }
    return CompositeResponse.of(status, pods);
  }

  private static long podBytes(ObjectNode job) {
    return AnswerSize.bytesOf(IndexedJobPods.template(job));
  }

  /** Refuses {@code pods} copies of the template when they are more than an answer may hold. */
  private static void checkSize(String countField, long pods, long podBytes) {
    AnswerSize.estimate().add("parent.spec.template", countField, pods, podBytes).check();
  }

  /** {@code status.phase}, "" when there is none; anything but Succeeded or Failed counts as active. */
  private static String phase(ObjectNode pod) {
    JsonNode phase = pod.path("status").path("phase");
    return phase.isTextual() ? phase.textValue() : "";
  }

  /**
   * Whether the parent's status has a Complete or Failed condition with status "True". Conditions without
   * a type are skipped: the status is this controller's own, so the next answer replaces them.
   */
  static boolean finished(ObjectNode job) {
    JsonNode conditions = job.path("status").path("conditions");
    if (!job.path("status").isObject() || !conditions.isArray()) {
      return false;
    }
    for (JsonNode condition : conditions) {
      String type = condition.path("type").textValue();
      if (("Complete".equals(type) || "Failed".equals(type))
          && "True".equals(condition.path("status").textValue())) {
        return true;
      }
    }
    return false;
  }
}
