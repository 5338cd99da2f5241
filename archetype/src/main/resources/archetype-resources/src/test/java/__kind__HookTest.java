package ${package};

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.server.InProcessHooks;
import dev.metahooks.testing.PublicApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The hook called as the server calls it (parsing, the controller, the answer's bytes and headers), without a
 * socket: a unit test of one request. And this project uses only metahooks' public API.
 */
class ${kind}HookTest {
  private static final InProcessHooks HOOKS = InProcessHooks.of(List.of(${kind}Controller.controller()));

  @Test
  void aFirstSyncAnswersTheConfigMap() throws Exception {
    byte[] request = Files.readAllBytes(Path.of("src/test/resources/fixtures/${artifactId}/sync/01-first-sync.request.json"));

    InProcessHooks.Response response = HOOKS.call("${artifactId}", "sync", request);

    assertThat(response.status()).isEqualTo(200);
    assertThat(response.header("Content-Type")).hasValue("application/json");
    assertThat(response.header("ETag")).isPresent();                 // Metacontroller may send it back
    assertThat(response.json().at("/children/0/data/message").asText()).isEqualTo("Hello, Team!");
  }

  @Test
  void anUnknownLanguageIsA422NamingTheField() {
    InProcessHooks.Response response = HOOKS.call("${artifactId}", "sync", """
        {"parent": {"apiVersion": "${apiGroup}/v1", "kind": "${kind}", "metadata": {"name": "odd"},
                    "spec": {"who": "Team", "language": "xx"}},
         "children": {}}""");

    assertThat(response.status()).isEqualTo(422);
    assertThat(response.json().path("field").asText()).isEqualTo("parent.spec.language");
  }

  @Test
  void usesOnlyThePublicApi() {
    PublicApi.assertOnlyPublicApiIn(Path.of("target/classes"), Path.of("target/test-classes"));
  }
}
