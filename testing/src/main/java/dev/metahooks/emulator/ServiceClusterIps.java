package dev.metahooks.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A Service's {@code clusterIP} and {@code clusterIPs} as the API server's Service storage reconciles them before
 * validation (Kubernetes' {@code pkg/registry/core/service/storage/storage.go}): on update it keeps what it allocated
 * when the client leaves it out ({@code patchAllocatedValues}, lines 591-645, with the Service's other allocated
 * fields), then syncs the plural with the singular ({@code normalizeClusterIPs}, lines 522-585), so that a changed
 * {@code clusterIP} shows as a changed {@code clusterIPs[0]}, which validation refuses (see {@link Validation}).
 */
final class ServiceClusterIps {
  private ServiceClusterIps() {}

  /** patchAllocatedValues: an update that leaves the cluster IPs (and IP families) out keeps the allocated ones. */
  static void keepAllocated(ObjectNode current, ObjectNode next) {
    if (!isService(current)
        || !(next.get("spec") instanceof ObjectNode spec)
        || !needsClusterIp(current.path("spec"))
        || !needsClusterIp(spec)) {
      return;
    }
    JsonNode before = current.path("spec");
    if (spec.path("clusterIP").asText("").isEmpty() && before.has("clusterIP")) {
      spec.set("clusterIP", before.get("clusterIP").deepCopy());
    }
    if (ips(spec).isEmpty() && !ips(before).isEmpty()) {
      spec.set("clusterIPs", before.get("clusterIPs").deepCopy());
    }
    for (String field : List.of("ipFamilies", "ipFamilyPolicy")) {
      if (!spec.has(field) && before.has(field)) {
        spec.set(field, before.get(field).deepCopy());
      }
    }
  }

  /** normalizeClusterIPs: {@code current} is null on create. */
  static void normalize(ObjectNode current, ObjectNode next) {
    if (!isService(next) || !(next.get("spec") instanceof ObjectNode spec)) {
      return;
    }
    String ip = spec.path("clusterIP").asText("");
    if (current == null) {
      if (!ip.isEmpty() && ips(spec).isEmpty()) {
        setIps(spec, List.of(ip));
      }
      return;
    }
    JsonNode before = current.path("spec");
    String oldIp = before.path("clusterIP").asText("");
    if (!ips(before).isEmpty() && ips(spec).isEmpty() && oldIp.equals(ip)) {
      setIps(spec, ips(before));
    }
    if (!oldIp.equals(ip)) {
      boolean sameIps = ips(before).equals(ips(spec));
      if (!oldIp.isEmpty() && ip.isEmpty()) {
        if (sameIps) {
          spec.remove("clusterIPs");
        }
      } else if (sameIps) {
        setIps(spec, List.of(ip));
      }
    }
  }

  /** isHeadlessService (pkg/apis/core/validation/validation.go:9321-9325). */
  static boolean headless(JsonNode spec) {
    List<String> ips = ips(spec);
    return ips.size() == 1 && ips.get(0).equals("None");
  }

  static boolean needsClusterIp(JsonNode spec) {
    return !spec.path("type").asText("").equals("ExternalName");
  }

  static List<String> ips(JsonNode spec) {
    List<String> ips = new ArrayList<>();
    spec.path("clusterIPs").forEach(ip -> ips.add(ip.asText("")));
    return ips;
  }

  private static void setIps(ObjectNode spec, List<String> ips) {
    ArrayNode list = spec.putArray("clusterIPs");
    ips.forEach(list::add);
  }

  private static boolean isService(ObjectNode object) {
    return Meta.apiVersion(object).equals("v1") && Meta.kind(object).equals("Service");
  }
}
