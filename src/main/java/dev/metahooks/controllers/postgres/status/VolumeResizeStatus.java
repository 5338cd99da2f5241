package dev.metahooks.controllers.postgres.status;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.controllers.postgres.observed.JobConditions;
import dev.metahooks.controllers.postgres.observed.ObservedCluster;
import dev.metahooks.controllers.postgres.plan.ClusterPlan;
import dev.metahooks.controllers.postgres.plan.VolumeGrowth;
import dev.metahooks.controllers.postgres.spec.Quantities;
import java.util.List;
import java.util.Optional;

/**
 * {@code status.volumeResize}, present while the data volumes grow: step {@code Resizing} while the resize Job
 * patches the claims and re-creates the StatefulSet, then {@code Expanding} while a claim's capacity is below its
 * request or Kubernetes reports it resizing ({@code Resizing}, {@code FileSystemResizePending}: the kubelet grows
 * the file system when the volume is next mounted, or online). Each member's claim as the API server reports it.
 */
public final class VolumeResizeStatus {
  private static final List<String> RESIZE_CONDITIONS =
      List.of("Resizing", "FileSystemResizePending");

  private VolumeResizeStatus() {}

  public static Optional<ObjectNode> render(ClusterPlan plan, ObservedCluster observed) {
    VolumeGrowth.Plan volumes = plan.volumes();
    // The claims are read only when the request carries them (always from Metacontroller, see
    // ObservedCluster).
    List<ObjectNode> claims = observed.hasVolumeGroups() ? observed.dataClaims() : List.of();
    boolean expanding = claims.stream().anyMatch(VolumeResizeStatus::expanding);
    if (!volumes.resizing() && !expanding) {
      return Optional.empty();
    }
    ObjectNode status = Json.object().put("size", volumes.size());
    if (volumes.resizing()) {
      String job = Names.resizeJob(plan.cluster(), volumes.size());
      String state =
          observed
              .job(job)
              .map(
                  j ->
                      JobConditions.failed(j)
                          ? "has failed: see its pod's log, then delete it" + " to try again"
                          : "runs")
              .orElse("is being created");
      status
          .put("step", "Resizing")
          .put(
              "message",
              "Job "
                  + job
                  + " "
                  + state
                  + ": it grows each member's claim from "
                  + volumes.templateSize()
                  + " to "
                  + volumes.size()
                  + ", then re-creates the StatefulSet around its pods");
    } else {
      status
          .put("step", "Expanding")
          .put(
              "message",
              "the claims have the new request; waiting for the volumes "
                  + "and their file systems to grow");
    }
    ArrayNode list = status.putArray("claims");
    for (ObjectNode claim : claims) {
      ObjectNode item = list.addObject().put("name", Names.of(claim));
      JsonNode request = claim.at("/spec/resources/requests/storage");
      JsonNode capacity = claim.at("/status/capacity/storage");
      if (request.isTextual()) {
        item.put("request", request.asText());
      }
      if (capacity.isTextual()) {
        item.put("capacity", capacity.asText());
      }
      item.put("fileSystemResizePending", condition(claim, "FileSystemResizePending"));
    }
    return Optional.of(status);
  }

  /** A bound claim whose capacity is below its request, or one Kubernetes reports resizing. */
  private static boolean expanding(JsonNode claim) {
    if (RESIZE_CONDITIONS.stream().anyMatch(type -> condition(claim, type))) {
      return true;
    }
    String request = claim.at("/spec/resources/requests/storage").asText("");
    String capacity = claim.at("/status/capacity/storage").asText("");
    return Quantities.valid(request)
        && Quantities.valid(capacity)
        && Quantities.bytes(capacity).compareTo(Quantities.bytes(request)) < 0;
  }

  private static boolean condition(JsonNode claim, String type) {
    return JobConditions.has(claim.path("status"), type);
  }
}
