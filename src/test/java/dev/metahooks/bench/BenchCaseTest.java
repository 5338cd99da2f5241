package dev.metahooks.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.testing.FixedSources;
import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every benchmark request is one its hook answers with 200, and the sized ones have the size they say. */
class BenchCaseTest {
  private static final FrontDoor FRONT_DOOR =
      FrontDoor.of(Catalog.controllers(FixedSources.INSTANCE));

  static Stream<String> cases() {
    return Stream.of(
        "catset:10",
        "indexedjob:10",
        "service-per-pod:10",
        "global-configmap:10",
        "configmap-propagation:10",
        "secret-propagation:10",
        "namespace-list:10",
        "configmap-list:10",
        "bluegreen",
        "daemonjob",
        "hello-world",
        "update-strategy",
        "crd-roles",
        "clustered-parent",
        "pod-name-label",
        "postgrescluster:dev-first-sync",
        "postgrescluster:ha-ready",
        "postgrescluster:customize");
  }

  @ParameterizedTest
  @MethodSource("cases")
  void isAnsweredWith200(String name) throws IOException {
    BenchCase benchCase = BenchCase.of(name);
    Reply answer = FRONT_DOOR.call(benchCase.controller(), benchCase.hook(), benchCase.body());
    byte[] body = answer.body().toByteArray();
    assertThat(answer.status())
        .as("%s: %s", name, new String(body, java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo(200);
    if (name.endsWith(":10")) {
      JsonNode response = JsonTrees.MAPPER.readTree(body);
      int answered =
          response.has("children")
              ? response.get("children").size()
              : response.path("attachments").size();
      JsonNode request = JsonTrees.MAPPER.readTree(benchCase.body());
      int observed = 0;
      for (String field : new String[] {"children", "attachments", "related"}) {
        for (JsonNode group : request.path(field)) {
          observed = Math.max(observed, group.size());
        }
      }
      assertThat(observed)
          .as("%s: the largest group of observed objects", name)
          .isGreaterThanOrEqualTo(10);
      assertThat(answered).as("%s: children answered", name).isPositive();
    }
  }
}
