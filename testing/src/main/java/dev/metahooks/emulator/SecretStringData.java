package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * A Secret's {@code stringData} as the API server stores it: folded into {@code data} (base64 of the UTF-8 text),
 * a key of both taking the {@code stringData} value, and {@code stringData} itself gone, since the internal Secret
 * has no such field (Kubernetes' {@code pkg/apis/core/v1/conversion.go:407-423},
 * {@code Convert_v1_Secret_To_core_Secret}). A hook that writes {@code stringData} therefore differs from the
 * stored Secret on every sync.
 */
final class SecretStringData {
  private SecretStringData() {}

  static void fold(ObjectNode object) {
    if (!Meta.apiVersion(object).equals("v1") || !Meta.kind(object).equals("Secret")) {
      return;
    }
    JsonNode stringData = object.remove("stringData");
    if (stringData == null || !stringData.isObject() || stringData.isEmpty()) {
      return;
    }
    ObjectNode data =
        object.get("data") instanceof ObjectNode existing ? existing : object.putObject("data");
    for (String key : Trees.fieldNames(stringData)) {
      byte[] bytes = stringData.get(key).asText("").getBytes(StandardCharsets.UTF_8);
      data.put(key, Base64.getEncoder().encodeToString(bytes));
    }
  }
}
