package dev.metahooks.controllers.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.postgres.base.Names;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.Resources;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every pod template in every postgrescluster fixture answer passes the Pod Security Standard {@code restricted}
 * (Kubernetes' policy, checked field by field): non-root, no privilege escalation, all capabilities dropped, a
 * seccomp profile, no host namespaces, ports or paths, only the volume types the profile allows.
 */
class PodSecurityRestrictedTest {
  private static final Set<String> ALLOWED_VOLUMES =
      Set.of(
          "configMap",
          "csi",
          "downwardAPI",
          "emptyDir",
          "ephemeral",
          "persistentVolumeClaim",
          "projected",
          "secret");

  @Test
  void everyRenderedPodIsAdmittedByRestricted() throws IOException {
    List<String> checked = new ArrayList<>();
    try (Stream<Path> files = Files.walk(Resources.path("fixtures/postgrescluster"))) {
      for (Path file :
          files.filter(f -> f.toString().endsWith(".response.json")).sorted().toList()) {
        for (JsonNode child : JsonTrees.MAPPER.readTree(file.toFile()).path("children")) {
          JsonNode pod = child.at("/spec/template/spec");
          if (pod.isObject()) {
            String where =
                file.getFileName() + " " + child.path("kind").asText() + "/" + Names.of(child);
            assertRestricted(where, pod);
            checked.add(child.path("kind").asText());
          }
        }
      }
    }
    assertThat(checked).contains("StatefulSet", "Job");
  }

  static void assertRestricted(String where, JsonNode pod) {
    assertThat(
            pod.path("hostNetwork").asBoolean(false)
                || pod.path("hostPID").asBoolean(false)
                || pod.path("hostIPC").asBoolean(false))
        .as("%s: host namespaces", where)
        .isFalse();
    JsonNode podContext = pod.path("securityContext");
    for (JsonNode volume : pod.path("volumes")) {
      List<String> types = new ArrayList<>();
      volume.fieldNames().forEachRemaining(types::add);
      types.remove("name");
      assertThat(ALLOWED_VOLUMES).as("%s: volume %s", where, volume).containsAll(types);
    }
    for (String list : List.of("initContainers", "containers")) {
      for (JsonNode container : pod.path(list)) {
        JsonNode context = container.path("securityContext");
        String name = where + " container " + container.path("name").asText();
        assertThat(context.path("privileged").asBoolean(false))
            .as("%s: privileged", name)
            .isFalse();
        assertThat(
                context.path("allowPrivilegeEscalation").isBoolean()
                    && !context.path("allowPrivilegeEscalation").asBoolean())
            .as("%s: allowPrivilegeEscalation false", name)
            .isTrue();
        List<String> dropped = new ArrayList<>();
        context.path("capabilities").path("drop").forEach(c -> dropped.add(c.asText()));
        assertThat(dropped).as("%s: drops ALL", name).contains("ALL");
        assertThat(context.path("capabilities").path("add").size())
            .as("%s: adds no capability", name)
            .isZero();
        boolean nonRoot =
            context
                .path("runAsNonRoot")
                .asBoolean(podContext.path("runAsNonRoot").asBoolean(false));
        assertThat(nonRoot).as("%s: runAsNonRoot", name).isTrue();
        assertThat(context.path("runAsUser").asInt(podContext.path("runAsUser").asInt(1)))
            .as("%s: not uid 0", name)
            .isNotZero();
        String seccomp =
            context
                .path("seccompProfile")
                .path("type")
                .asText(podContext.path("seccompProfile").path("type").asText(""));
        assertThat(seccomp).as("%s: seccomp", name).isIn("RuntimeDefault", "Localhost");
        for (JsonNode port : container.path("ports")) {
          assertThat(port.has("hostPort")).as("%s: hostPort", name).isFalse();
        }
      }
    }
  }
}
