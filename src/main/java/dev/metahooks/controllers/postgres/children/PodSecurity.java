package dev.metahooks.controllers.postgres.children;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Json;

/**
 * Security contexts that Pod Security {@code restricted} admits: not root, no privilege escalation, no
 * capabilities, the runtime's default seccomp profile. Spilo runs as its {@code postgres} user (uid 101, gid
 * 103) when started without root, so every pod of a cluster runs as that user; the volumes are given to its
 * group. The root filesystem stays writable: Spilo writes its configuration under {@code /run} and
 * {@code /home/postgres} (restricted does not ask for a read-only root).
 */
public final class PodSecurity {
  public static final int SPILO_UID = 101;
  public static final int SPILO_GID = 103;

  private PodSecurity() {}

  public static ObjectNode pod() {
    ObjectNode context =
        Json.object()
            .put("runAsNonRoot", true)
            .put("runAsUser", SPILO_UID)
            .put("runAsGroup", SPILO_GID)
            .put("fsGroup", SPILO_GID)
            // The volume's ownership is changed only when its root does not match, not file by file
            // on every start.
            .put("fsGroupChangePolicy", "OnRootMismatch");
    context.putObject("seccompProfile").put("type", "RuntimeDefault");
    return context;
  }

  public static ObjectNode container() {
    ObjectNode context = Json.object().put("allowPrivilegeEscalation", false);
    context.putObject("capabilities").putArray("drop").add("ALL");
    return context;
  }
}
