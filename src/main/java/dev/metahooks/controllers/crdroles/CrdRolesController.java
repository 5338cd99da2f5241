package dev.metahooks.controllers.crdroles;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.api.DecoratorRequest;
import dev.metahooks.api.DecoratorResponse;
import dev.metahooks.api.Json;
import java.util.List;

/**
 * Metacontroller's crd-roles example: a DecoratorController on CustomResourceDefinitions annotated
 * {@code enable-default-roles} gives each one a ClusterRole {@code <crd name>-reader}. As upstream, the role
 * has no rules yet: it is a named place for an administrator to grant read access to the new resource.
 * Only the attachment is returned; the CRD's labels, annotations and status are left alone.
 */
public final class CrdRolesController {
  private CrdRolesController() {}

  public static Controller controller() {
    return Controller.decorator("crd-roles").sync(CrdRolesController::sync).build();
  }

  public static DecoratorResponse sync(DecoratorRequest request) {
    return DecoratorResponse.attachments(List.of(readerRole(request.name())));
  }

  static ObjectNode readerRole(String crdName) {
    ObjectNode role =
        Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "ClusterRole");
    // No rules, as the example this ports; and no empty "rules" list either: the API server stores
    // none, and
    // Metacontroller would set the empty list again on every sync.
    role.putObject("metadata").put("name", crdName + "-reader");
    return role;
  }
}
