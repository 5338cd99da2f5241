package dev.metahooks.controllers.clusteredparent;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.DecoratorRequest;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.api.Json;
import java.util.List;

/**
 * Metacontroller's clusteredparent example: a DecoratorController on ClusterRoles annotated
 * {@code default-service-account-binding} binds each one to the {@code default} ServiceAccount of the
 * {@code default} namespace, with a RoleBinding {@code default/<cluster role name>}: a namespaced attachment
 * of a cluster-scoped object. Only the attachment is returned.
 */
public final class ClusteredParentController {
  static final String NAMESPACE = "default";
  static final String SERVICE_ACCOUNT = "default";

  private ClusteredParentController() {}

  public static Controller controller() {
    return Controller.decorator("clustered-parent").sync(ClusteredParentController::sync).build();
  }

  public static DecoratorResponse sync(DecoratorRequest request) {
    return DecoratorResponse.attachments(List.of(roleBinding(request.name())));
  }

  static ObjectNode roleBinding(String clusterRoleName) {
    ObjectNode binding =
        Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "RoleBinding");
    binding.putObject("metadata").put("name", clusterRoleName).put("namespace", NAMESPACE);
    binding
        .putArray("subjects")
        .addObject()
        .put("kind", "ServiceAccount")
        .put("name", SERVICE_ACCOUNT)
        .put("namespace", NAMESPACE);
    binding
        .putObject("roleRef")
        .put("kind", "ClusterRole")
        .put("name", clusterRoleName)
        .put("apiGroup", "rbac.authorization.k8s.io");
    return binding;
  }
}
