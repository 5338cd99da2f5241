package dev.metahooks.controllers.updatestrategy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.CompositeRequest;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.kube.FieldReader;
import java.util.List;

/**
 * OnDeleteDemo and RecreateDemo ({@code ctl.example.com/v1}), Metacontroller's update-strategy example: one
 * hook serves both CompositeControllers, which differ only in how Metacontroller applies a changed child
 * (OnDelete: never, until someone deletes it; Recreate: delete and create again).
 *
 * <p>The child is a ConfigMap {@code <name>-data} with {@code data.value = spec.configData} ("initial" when
 * absent); the status records {@code observedConfigData}. The observed children play no part.
 */
public final class UpdateStrategyController {
  static final String DEFAULT_CONFIG_DATA = "initial";

  private UpdateStrategyController() {}

  public static Controller controller() {
    return Controller.composite("update-strategy").sync(UpdateStrategyController::sync).build();
  }

  public static CompositeResponse sync(CompositeRequest request) {
    String configData = configData(request.parent());
    ObjectNode status = Json.object().put("observedConfigData", configData);
    return CompositeResponse.of(status, List.of(configMap(request.name(), configData)));
  }

  static ObjectNode configMap(String parentName, String configData) {
    ObjectNode configMap = Json.object().put("apiVersion", "v1").put("kind", "ConfigMap");
    configMap.putObject("metadata").put("name", parentName + "-data");
    configMap.putObject("data").put("value", configData);
    return configMap;
  }

  /** {@code spec.configData}; absent or null means the CRD's default. */
  static String configData(ObjectNode parent) {
    return FieldReader.spec(parent).optionalString("configData").orElse(DEFAULT_CONFIG_DATA);
  }
}
