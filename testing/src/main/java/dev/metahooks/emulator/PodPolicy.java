package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashMap;
import java.util.Map;

/**
 * Decides, at each world step, the state of every Pod that is not finished yet (Succeeded and Failed Pods
 * stay as they are). A test picks one per scenario, e.g. {@code pod -> name(pod).endsWith("-2") ?
 * PodState.FAILED : PodState.SUCCEEDED}.
 */
@FunctionalInterface
public interface PodPolicy {
  PodState state(ObjectNode pod);

  /** Every Pod Running and Ready from the first step after it was created (the default). */
  static PodPolicy ready() {
    return pod -> PodState.READY;
  }

  /** Every Pod runs to completion successfully. */
  static PodPolicy succeeded() {
    return pod -> PodState.SUCCEEDED;
  }

  /** Every Pod fails. */
  static PodPolicy failed() {
    return pod -> PodState.FAILED;
  }

  /** Every Pod runs but never becomes Ready. */
  static PodPolicy neverReady() {
    return pod -> PodState.RUNNING;
  }

  /** Pods stay Pending for {@code steps} world steps, then follow {@code then}. */
  static PodPolicy pendingFor(int steps, PodPolicy then) {
    Map<String, Integer> seen = new HashMap<>();
    return pod -> {
      int count = seen.merge(Meta.uid(pod), 1, Integer::sum);
      return count <= steps ? PodState.PENDING : then.state(pod);
    };
  }

  /** The Pod's name, for policies that pick by name. */
  static String name(ObjectNode pod) {
    return Meta.name(pod);
  }
}
