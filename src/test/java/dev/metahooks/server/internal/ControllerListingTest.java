package dev.metahooks.server.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.CompositeResponse;
import dev.metahooks.api.Controller;
import dev.metahooks.api.Json;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /controllers} of an application's own server: metahooks' version at the top, and beside each
 * controller the version of the application it ships in, when its builder declares one.
 */
class ControllerListingTest {
  private static Controller.CompositeBuilder controller(String name) {
    return Controller.composite(name)
        .sync(request -> CompositeResponse.of(Json.object(), List.of()));
  }

  @Test
  void aDeclaredVersionIsListedBesideItsControllerAndAnUndeclaredOneIsLeftOut() throws Exception {
    Controller versioned = controller("greeting").version(" 1.4.2 ").build();
    try (HookServer server =
        new HookServer(
                ServerConfig.defaults().withPort(0),
                List.of(versioned, controller("plain").build()))
            .start()) {
      HttpResponse<String> reply =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://localhost:" + server.port() + "/controllers"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());

      JsonNode listing = JsonTrees.MAPPER.readTree(reply.body());
      assertThat(listing.path("version").asText()).isEqualTo(BuildInfo.version());
      assertThat(listing.at("/controllers/0/name").asText()).isEqualTo("greeting");
      assertThat(listing.at("/controllers/0/version").asText()).isEqualTo("1.4.2");
      assertThat(listing.at("/controllers/1/name").asText()).isEqualTo("plain");
      assertThat(listing.at("/controllers/1").has("version")).isFalse();
    }
  }

  @Test
  void anEmptyVersionIsRefusedWhereItIsDeclared() {
    assertThatThrownBy(() -> controller("greeting").version(" "))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("greeting");
  }
}
