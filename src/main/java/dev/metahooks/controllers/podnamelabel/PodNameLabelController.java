package dev.metahooks.controllers.podnamelabel;

import dev.metahooks.api.Controller;
import dev.metahooks.api.DecoratorRequest;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.kube.FieldReader;
import java.util.Map;

/**
 * The pod-name-label DecoratorController of Metacontroller's service-per-pod example: a Pod annotated
 * {@code pod-name-label: <key>} gets the label {@code <key>: <pod name>}, which the per-pod Services select.
 * Only that label is returned; nothing else about the Pod changes.
 */
public final class PodNameLabelController {
  static final String ANNOTATION = "pod-name-label";

  private PodNameLabelController() {}

  public static Controller controller() {
    return Controller.decorator("pod-name-label").sync(PodNameLabelController::sync).build();
  }

  public static DecoratorResponse sync(DecoratorRequest request) {
    String labelKey =
        FieldReader.of(request.object(), "object")
            .objectOrEmpty("metadata")
            .objectOrEmpty("annotations")
            .requiredText(ANNOTATION);
    return DecoratorResponse.labels(Map.of(labelKey, request.name()));
  }
}
