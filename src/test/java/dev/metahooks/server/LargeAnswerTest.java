package dev.metahooks.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.metahooks.bench.BenchCase;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.Blocks;
import dev.metahooks.server.internal.FrontDoor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.Base64;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An answer of many blocks (a CatSet of 1,000 Pods: about 1 MB) over HTTP, computed and from the response cache:
 * the same bytes as Jackson writes for the hook's response in one piece, its length and its ETag, and a 304 for
 * that ETag.
 */
class LargeAnswerTest {
  private static final HttpClient CLIENT = HttpClient.newHttpClient();
  private HookServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aLargeAnswerIsSentWholeWithItsETagComputedAndCached() throws Exception {
    BenchCase catset = BenchCase.of("catset:1000");
    byte[] plain =
        JsonTrees.MAPPER.writeValueAsBytes(
            FrontDoor.of(Catalog.controllers())
                .response(catset.controller(), catset.hook(), catset.body()));
    assertThat(plain.length).as("spans many blocks").isGreaterThan(10 * Blocks.BLOCK);
    server = new HookServer(ServerConfig.defaults().withPort(0), Catalog.controllers()).start();

    HttpResponse<byte[]> computed = post(catset, null);
    HttpResponse<byte[]> cached = post(catset, null);

    for (HttpResponse<byte[]> reply : java.util.List.of(computed, cached)) {
      assertThat(reply.statusCode()).isEqualTo(200);
      assertThat(reply.body()).isEqualTo(plain);
      assertThat(reply.headers().firstValueAsLong("Content-Length")).hasValue(plain.length);
      assertThat(reply.headers().firstValue("ETag")).hasValue(sha256(plain));
    }
    HttpResponse<byte[]> unchanged = post(catset, sha256(plain));
    assertThat(unchanged.statusCode()).isEqualTo(304);
    assertThat(unchanged.body()).isEmpty();
  }

  private HttpResponse<byte[]> post(BenchCase call, String ifNoneMatch) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://localhost:"
                        + server.port()
                        + "/"
                        + call.controller()
                        + "/"
                        + call.hook()))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(call.body()));
    if (ifNoneMatch != null) {
      request.header("If-None-Match", ifNoneMatch);
    }
    return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
  }

  private static String sha256(byte[] body) throws Exception {
    return '"'
        + Base64.getUrlEncoder()
            .withoutPadding()
            .encodeToString(MessageDigest.getInstance("SHA-256").digest(body))
        + '"';
  }
}
