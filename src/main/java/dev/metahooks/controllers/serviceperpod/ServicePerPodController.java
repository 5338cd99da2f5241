package dev.metahooks.controllers.serviceperpod;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.AnswerSize;
import dev.metahooks.api.Controller;
import dev.metahooks.api.DecoratorRequest;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.api.HookVersion;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.kube.FieldReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Metacontroller's service-per-pod example: a DecoratorController on StatefulSets annotated
 * {@code service-per-pod-label} and {@code service-per-pod-ports} gives each replica its own Service
 * {@code <name>-<index>}, selecting the Pod by the label named in the first annotation.
 *
 * <p>One hook serves both upstream variants, told apart by the hook version Metacontroller reports: with
 * v2 (service-per-pod-v2) the sync answer also sets the StatefulSet annotation {@code v2-naming-verified},
 * "true" when Service {@code <name>-0} was found under its v2 key {@code namespace/name}.
 *
 * <p>Finalize (opt-out or deletion) asks for no Services and reports finalized once none is left.
 */
public final class ServicePerPodController {
  static final String LABEL_ANNOTATION = "service-per-pod-label";
  static final String VERIFIED_ANNOTATION = "v2-naming-verified";

  private ServicePerPodController() {}

  public static Controller controller() {
    return Controller.decorator("service-per-pod")
        .sync(ServicePerPodController::sync)
        .finalize(ServicePerPodController::finalize)
        // Of attached Services the hooks read whether they are there.
        .reads("v1", "Service")
        .build();
  }

  public static DecoratorResponse sync(DecoratorRequest request) {
    ObjectNode statefulSet = request.object();
    String labelKey = annotation(statefulSet, LABEL_ANNOTATION);
    ArrayNode ports = ServicePorts.parse(annotation(statefulSet, ServicePorts.ANNOTATION));
    long replicas = replicas(statefulSet);
    // Every Service is about the size of the last one (its name is the longest): refuse before
    // building any.
    AnswerSize.estimate()
        .add(
            "object.metadata.annotations['" + ServicePorts.ANNOTATION + "']",
            "object.spec.replicas",
            replicas,
            Services.build(request.name(), Math.max(0, replicas - 1), labelKey, ports))
        .check();
    List<ObjectNode> services = new ArrayList<>();
    for (long index = 0; index < replicas; index++) {
      services.add(Services.build(request.name(), index, labelKey, ports));
    }
    Map<String, String> annotations = null;
    if (request.version() == HookVersion.V2) {
      boolean found =
          request
              .attachments()
              .get("v1", "Service", request.namespace(), request.name() + "-0")
              .isPresent();
      annotations = Map.of(VERIFIED_ANNOTATION, String.valueOf(found));
    }
    return new DecoratorResponse(null, annotations, null, services, null, null);
  }

  public static DecoratorResponse finalize(DecoratorRequest request) {
    boolean noneLeft = request.attachments().count("v1", "Service") == 0;
    return new DecoratorResponse(null, null, null, List.of(), null, noneLeft);
  }

  static String annotation(ObjectNode object, String key) {
    return FieldReader.of(object, "object")
        .objectOrEmpty("metadata")
        .objectOrEmpty("annotations")
        .requiredText(key);
  }

  /**
   * {@code spec.replicas}; the API server always sets it on a StatefulSet. How many Services an answer may hold
   * depends on their size ({@link AnswerSize}), not on a count.
   */
  private static long replicas(ObjectNode statefulSet) {
    FieldReader spec = FieldReader.of(statefulSet, "object").objectOrEmpty("spec");
    long replicas =
        spec.optionalInteger("replicas")
            .orElseThrow(() -> new InvalidRequestException(spec.path("replicas"), "is required"));
    if (replicas < 0) {
      throw new InvalidRequestException(spec.path("replicas"), "must be a non-negative integer");
    }
    return replicas;
  }
}
