package dev.metahooks.server;

import com.fasterxml.jackson.databind.JsonNode;
import dev.metahooks.api.Controller;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.server.internal.ReplyWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Calls a hook the way the server answers {@code POST /<controller>/<hook>}, without a socket, through the same
 * front door and answer writer as HTTP: routing (404 for a hook not served), the body limit (413), parsing (400,
 * 422), the controller, the answer's size limit and the response cache, with the status, the headers metahooks
 * sets and the body bytes the server would send.
 *
 * <pre>{@code
 * InProcessHooks hooks = InProcessHooks.of(List.of(GreetingController.controller()));
 * InProcessHooks.Response response = hooks.call("greeting", "sync", request);
 * assertThat(response.status()).isEqualTo(200);
 * assertThat(response.json().at("/children/0/data/message").asText()).isEqualTo("Hello, Team!");
 * }</pre>
 *
 * <p>What protects a running server under load is not here: the call runs on the caller's thread with no
 * admission queue, deadline, authentication or recording, so a test sees its hook's own answer however slowly
 * the test machine runs. Thread-safe; one instance may serve many calls.
 */
public final class InProcessHooks {
  private final FrontDoor frontDoor;

  private InProcessHooks(ServerConfig config, List<Controller> controllers) {
    this.frontDoor = FrontDoor.of(config, controllers);
  }

  /** The controllers with the server's default settings ({@link ServerConfig#defaults()}). */
  public static InProcessHooks of(List<Controller> controllers) {
    return of(ServerConfig.defaults(), controllers);
  }

  /** The controllers with the body, answer and cache limits of {@code config}. */
  public static InProcessHooks of(ServerConfig config, List<Controller> controllers) {
    return new InProcessHooks(config, controllers);
  }

  /** Answers {@code requestBody} as the server answers it when POSTed to {@code /<controller>/<hook>}. */
  public Response call(String controller, String hook, byte[] requestBody) {
    return Response.of(frontDoor.call(controller, hook, requestBody));
  }

  /** The same for a request written as JSON text. */
  public Response call(String controller, String hook, String requestJson) {
    return call(controller, hook, requestJson.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * An answer as the server sends it: status, the headers metahooks sets ({@code Content-Type},
   * {@code Content-Length}, and on a 200 the {@code ETag} Metacontroller may send back as {@code If-None-Match}),
   * looked up without regard to case, and the body's bytes (compare bodies with {@link #text} or {@link #json}: a
   * record compares arrays by identity). An error's body is {@code {"error": code, "message": ..., "field": ...}}.
   */
  public record Response(int status, Map<String, String> headers, byte[] body) {
    static Response of(Reply reply) {
      Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      headers.put("Content-Type", ReplyWriter.JSON);
      headers.put("Content-Length", Long.toString(reply.body().size()));
      if (reply.etag() != null) {
        headers.put("ETag", reply.etag());
      }
      return new Response(
          reply.status(), Collections.unmodifiableMap(headers), reply.body().toByteArray());
    }

    public Optional<String> header(String name) {
      return Optional.ofNullable(headers.get(name));
    }

    /** The body as a JSON tree. */
    public JsonNode json() {
      try {
        return JsonTrees.MAPPER.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    /** The body as text. */
    public String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }
}
