package dev.metahooks.controllers.postgres.plan;

import static dev.metahooks.testsupport.JsonLiteral.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.InvalidRequestException;
import dev.metahooks.controllers.postgres.ObservedRequests;
import dev.metahooks.controllers.postgres.TlsWorlds;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The hook's decisions on a larger or smaller storage.size, one call at a time. */
class VolumeGrowthTest {
  @Test
  void aGrowthWithoutTheClaimsInTheRequestIsA422AndOtherwiseTheyAreNotNeeded() {
    ObservedRequests world = running();
    assertThat(world.call(false).path("status").has("volumeResize"))
        .as("unchanged size: groups not needed")
        .isFalse();
    world.edit(spec -> spec.putObject("storage").put("size", "2Gi"));
    assertThatThrownBy(() -> world.call(false))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("related['PersistentVolumeClaim.v1']");
  }

  @Test
  void underHookVersionV1AGrowthIsRefusedAndMovesNothing() {
    ObservedRequests world = running();
    world.hookVersion = "v1";
    world.sync();
    Map<String, JsonNode> children = new TreeMap<>(world.children);
    world.edit(spec -> spec.putObject("storage").put("size", "2Gi"));
    JsonNode specValid = TlsWorlds.condition(world.sync(), "SpecValid");
    assertThat(specValid.path("status").asText()).isEqualTo("False");
    assertThat(specValid.path("message").asText())
        .startsWith("spec.storage.size: cannot grow from 1Gi to 2Gi under hook " + "version v1");
    assertThat(world.children).isEqualTo(children);
  }

  @Test
  void theResizeJobAndItsRoleNameEveryMembersClaimAndTheStatefulSetKeepsItsTemplate() {
    ObservedRequests world = running();
    world.relateVolumes("standard", true);
    world.edit(spec -> spec.putObject("storage").put("size", "2Gi"));
    world.sync();
    assertThat(
            world
                .children
                .get("StatefulSet/orders")
                .at("/spec/volumeClaimTemplates/0/spec/resources/requests/storage")
                .asText())
        .isEqualTo("1Gi");
    JsonNode role = world.children.get("Role/orders-resize");
    assertThat(role.at("/rules/0/resourceNames"))
        .isEqualTo(json("[\"pgdata-orders-0\",\"pgdata-orders-1\",\"pgdata-orders-2\"]"));
    assertThat(role.at("/rules/1/resourceNames")).isEqualTo(json("[\"orders\"]"));
    assertThat(world.children.keySet()).anyMatch(key -> key.startsWith("Job/orders-resize-"));
    assertThat(world.status.at("/volumeResize/step").asText()).isEqualTo("Resizing");

    // A class without expansion named by the claims refuses it, though the default class allows it.
    world
        .claims
        .values()
        .forEach(claim -> claim.withObjectProperty("spec").put("storageClassName", "fixed"));
    JsonNode specValid = TlsWorlds.condition(world.call(false), "SpecValid");
    assertThat(specValid.path("message").asText())
        .isEqualTo(
            "spec.storage.size: cannot grow from 1Gi to 2Gi: "
                + "StorageClass fixed does not allow volume expansion (allowVolumeExpansion is not true)");
  }

  private static ObservedRequests running() {
    ObservedRequests world = TlsWorlds.running();
    world.hookVersion = "v2";
    world.sync();
    return world;
  }
}
