package dev.metahooks.controllers.catset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.AnswerSize;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * CatSet ({@code ctl.enisoc.com/v1}) of Metacontroller's examples: a StatefulSet made of Pods and
 * PersistentVolumeClaims. Pods {@code <name>-<ordinal>} are started one at a time, each only once every lower
 * ordinal is Running and Ready, and removed from the highest ordinal down once all wanted ones are Ready.
 * Pods are listed highest ordinal first, which is the order Metacontroller rolls them in. Finalizing scales
 * to zero and is done when no Pod is left. One function serves sync and finalize, as upstream's one URL did.
 * When the manifest does not let Metacontroller roll the Pods, the hook rolls them ({@link CatSetRoll}).
 */
public final class CatSetController {
  private CatSetController() {}

  public static Controller controller() {
    return Controller.composite("catset")
        .sync(CatSetController::sync)
        .finalize(CatSetController::sync)
        // Of observed Pods the hook reads the deletion timestamp, the template hash, the phase and
        // the Ready
        // condition (CatSetPods.runningAndReady, CatSetRoll.next); of claims, the name. It re-emits
        // neither.
        .reads(
            "v1",
            "Pod",
            "metadata.deletionTimestamp",
            "metadata.annotations['" + CatSetRoll.TEMPLATE_HASH + "']",
            "status.phase",
            "status.conditions.type",
            "status.conditions.status")
        .reads("v1", "PersistentVolumeClaim")
        .build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    String name = request.name();
    CatSetSpec spec = CatSetSpec.read(request.parent(), request.finalizing());
    CatSetSpec.Replicas replicas = spec.replicas();
    NavigableMap<Double, ObjectNode> observed =
        observedPods(request.children().list("v1", "Pod"), name);

    int ready = 0;
    while (replicas.exceeds(ready) && CatSetPods.runningAndReady(observed.get((double) ready))) {
      ready++;
    }
    ObjectNode status = Json.object().put("replicas", observed.size()).put("readyReplicas", ready);

    // Keep every observed Pod, add the next missing one once all lower ordinals are ready, and
    // remove the
    // highest surplus one only when all wanted Pods are ready.
    NavigableSet<Double> ordinals = new TreeSet<>(observed.keySet());
    if (replicas.exceeds(ready)) {
      ordinals.add((double) ready);
    }
    if (replicas.strictlyEquals(ready)
        && !ordinals.isEmpty()
        && replicas.reachedBy(ordinals.last())) {
      ordinals.pollLast();
    }
    // The hook rolls Pods itself: the highest Pod of an old template leaves the answer, to be
    // recreated.
    boolean rolledByHook = CatSetRoll.drivenByHook(request.controller());
    String hash = rolledByHook ? CatSetRoll.hash(spec.template()) : null;
    if (rolledByHook && !request.finalizing() && !ordinals.isEmpty()) {
      ordinals.remove(CatSetRoll.next(observed, replicas, ready, hash));
    }

    // Each Pod is written as a copy of the template, each claim of its claim template: refuse an
    // answer too large
    // to build.
    AnswerSize.Estimate size = AnswerSize.estimate();
    if (!ordinals.isEmpty()) {
      size.add("parent.spec.template", "children['Pod.v1']", ordinals.size(), spec.template());
    }
    CatSetClaims.estimate(size, request, spec);
    size.check();

    List<ObjectNode> children = new ArrayList<>();
    ObjectNode template = ordinals.isEmpty() ? null : CatSetPods.template(spec);
    for (double ordinal : ordinals.descendingSet()) {
      ObjectNode pod = CatSetPods.build(spec, template, CatSetPods.name(name, ordinal));
      if (rolledByHook) {
        CatSetRoll.mark(pod, hash);
      }
      children.add(pod);
    }
    children.addAll(CatSetClaims.desired(request, spec));
    CompositeResponse response = CompositeResponse.of(status, children);
    return request.finalizing() ? response.withFinalized(observed.isEmpty()) : response;
  }

  /** Observed Pods of this CatSet by ordinal; of two names with one ordinal (web-1, web-01) the later wins. */
  static NavigableMap<Double, ObjectNode> observedPods(List<ObjectNode> pods, String name) {
    NavigableMap<Double, ObjectNode> byOrdinal = new TreeMap<>();
    for (ObjectNode pod : pods) {
      OptionalDouble ordinal =
          CatSetPods.ordinal(name, pod.path("metadata").path("name").textValue());
      ordinal.ifPresent(o -> byOrdinal.put(o, pod));
    }
    return byOrdinal;
  }
}
