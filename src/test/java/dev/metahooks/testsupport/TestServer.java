package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.testing.FixedSources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The real server with every controller (time and secrets pinned by {@link FixedSources}), on a free port, shared by the tests of one JVM, and a small client
 * that posts JSON to it the way Metacontroller does.
 */
public final class TestServer {
  private static HookServer server;
  private static final HttpClient CLIENT =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private TestServer() {}

  public static synchronized int port() {
    if (server == null) {
      server =
          new HookServer(
                  ServerConfig.defaults().withPort(0), Catalog.controllers(FixedSources.INSTANCE))
              .start();
      Runtime.getRuntime().addShutdownHook(new Thread(server::close));
    }
    return server.port();
  }

  public static URI uri(String path) {
    return URI.create("http://localhost:" + port() + path);
  }

  public record Reply(int status, String contentType, String body) {
    public JsonNode json() {
      try {
        return JsonTrees.MAPPER.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + body, e);
      }
    }
  }

  public static Reply post(String path, byte[] body) {
    return send(
        HttpRequest.newBuilder(uri(path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build());
  }

  public static Reply send(HttpRequest request) {
    try {
      HttpResponse<String> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
      return new Reply(
          response.statusCode(),
          response.headers().firstValue("Content-Type").orElse(""),
          response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
