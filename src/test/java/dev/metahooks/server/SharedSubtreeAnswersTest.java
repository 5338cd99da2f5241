package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.bench.BenchCase;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.HookError;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Resources;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Answers as the server writes them (shared subtrees written once, json.SharedSubtrees) are byte for byte what
 * Jackson writes for the same answer: every golden fixture of every controller, and large generated requests
 * whose children share their template's nodes.
 */
class SharedSubtreeAnswersTest {
  private static final FrontDoor FRONT_DOOR =
      FrontDoor.of(Catalog.controllers(FixedSources.INSTANCE));

  @Test
  void everyGoldenFixtureIsAnsweredWithJacksonsBytes() throws Exception {
    Path fixtures = Resources.path("fixtures");
    int compared = 0;
    for (Path request : Resources.find(fixtures, ".request.json")) {
      Path relative = fixtures.relativize(request);
      String controller = relative.getName(0).toString();
      String hook = relative.getName(1).toString();
      compared += sameBytes(controller, hook, Resources.bytes(request)) ? 1 : 0;
    }
    assertThat(compared).isGreaterThan(250);
  }

  @Test
  void largeAnswersOfSharedTemplatesAreJacksonsBytes() throws Exception {
    for (String name :
        List.of(
            "catset:1000",
            "indexedjob:300",
            "service-per-pod:300",
            "configmap-propagation:300",
            "secret-propagation:300",
            "global-configmap:300")) {
      BenchCase request = BenchCase.of(name);
      assertThat(sameBytes(request.controller(), request.hook(), request.body())).as(name).isTrue();
    }
  }

  /** Whether the hook answered 200; either way the written bytes must be Jackson's. */
  private static boolean sameBytes(String controller, String hook, byte[] body) throws Exception {
    Object answer;
    int status;
    try {
      answer = FRONT_DOOR.response(controller, hook, body);
      status = 200;
    } catch (HookError e) {
      answer = e.body();
      status = e.status();
    }
    Reply reply = FRONT_DOOR.call(controller, hook, body);
    assertThat(reply.status()).as("%s/%s", controller, hook).isEqualTo(status);
    assertThat(new String(reply.body().toByteArray(), StandardCharsets.UTF_8))
        .as("%s/%s", controller, hook)
        .isEqualTo(new String(JsonTrees.MAPPER.writeValueAsBytes(answer), StandardCharsets.UTF_8));
    return status == 200;
  }
}
