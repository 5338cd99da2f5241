package dev.metahooks.bench;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.json.Projection;
import dev.metahooks.json.SharedSubtrees;
import dev.metahooks.server.config.ServerConfig;
import dev.metahooks.server.internal.Blocks;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The whole in-process pipeline of one hook call, request bytes to response bytes, for every controller on
 * realistic requests ({@link BenchCase}); beside it a baseline that only parses the same bytes into a Jackson
 * tree and writes a tree of the response's size back, with Jackson as it comes (a plain ObjectMapper).
 * pipeline / baseline is what the framework and the controller add to the JSON work any hook server must do.
 *
 * <p>{@code parse} and {@code hook} are its first steps alone (parse; parse and run the hook), so that what the
 * answer's tree and bytes cost is {@code pipeline} minus {@code hook}. None of them reads the body from a socket
 * or sends the answer: that is the HTTP benchmark's part ({@code scripts/load.sh}).
 *
 * <p>{@code write} is the answer alone, written as the server writes it, beside {@code writeEachTime}, the same
 * answer as Jackson writes it by itself.
 *
 * <p>{@code cached} is the same call answered from the response cache (a resync of an unchanged world): a hash
 * of the request and a lookup. {@code tokenize} is the floor of any parse of the same bytes: Jackson's tokenizer
 * over every token, with no value decoded and nothing built; {@code parse} is the parse alone, as the server
 * parses for the controller (with what it declares it reads).
 *
 * <p>{@code scripts/bench.sh} runs it; {@code scripts/bench.sh -p request=catset:1000} runs one case.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx2g", "-Xms2g"})
public class PipelineBenchmark {
  @Param({
    "catset:10",
    "catset:1000",
    "catset:10000",
    "indexedjob:10",
    "indexedjob:1000",
    "indexedjob:10000",
    "service-per-pod:10",
    "service-per-pod:1000",
    "service-per-pod:10000",
    "global-configmap:10",
    "global-configmap:1000",
    "global-configmap:10000",
    "configmap-propagation:10",
    "configmap-propagation:1000",
    "configmap-propagation:10000",
    "secret-propagation:10",
    "secret-propagation:1000",
    "secret-propagation:10000",
    "namespace-list:10",
    "namespace-list:1000",
    "namespace-list:10000",
    "configmap-list:10",
    "configmap-list:1000",
    "configmap-list:10000",
    "bluegreen",
    "daemonjob",
    "hello-world",
    "update-strategy",
    "crd-roles",
    "clustered-parent",
    "pod-name-label",
    "postgrescluster:dev-first-sync",
    "postgrescluster:ha-ready",
    "postgrescluster:customize"
  })
  public String request;

  private BenchCase benchCase;
  private FrontDoor frontDoor;
  private FrontDoor caching;
  private JsonNode responseTree;
  private Projection projection;
  private final ObjectMapper plainJackson = new ObjectMapper();
  private final ObjectMapper splicing = SharedSubtrees.writing(JsonTrees.MAPPER);
  private Object answer;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    benchCase = BenchCase.of(request);
    projection = benchCase.projection();
    frontDoor = FrontDoor.of(Catalog.controllers());
    caching =
        FrontDoor.of(
            ServerConfig.builder()
                .responseCacheBytes(4 * ServerConfig.DEFAULT_RESPONSE_CACHE_BYTES)
                .build(),
            Catalog.controllers());
    byte[] response = pipeline().toByteArray();
    Reply computed = caching.call(benchCase.controller(), benchCase.hook(), benchCase.body());
    Reply cachedReply = caching.call(benchCase.controller(), benchCase.hook(), benchCase.body());
    if (computed.cached() || !cachedReply.cached() || !computed.etag().equals(cachedReply.etag())) {
      throw new IllegalStateException(request + " is not answered from the cache");
    }
    responseTree = plainJackson.readTree(response);
    answer = frontDoor.response(benchCase.controller(), benchCase.hook(), benchCase.body());
    if (!benchCase.expectsStatus(frontDoor, 200)) {
      throw new IllegalStateException(
          request + " is not answered with 200: " + new String(response));
    }
  }

  /**
   * What the server does with a request body it has read, through its front door: the route, parse, run the hook,
   * write, hash for the ETag.
   */
  @Benchmark
  public Blocks pipeline() {
    return frontDoor.call(benchCase.controller(), benchCase.hook(), benchCase.body()).body();
  }

  /** Route, parse and hook, without writing the answer. */
  @Benchmark
  public Object hook() {
    return frontDoor.response(benchCase.controller(), benchCase.hook(), benchCase.body());
  }

  /**
   * The hook's answer alone, written as the server writes it: each subtree children share written once and
   * copied where it recurs ({@code json.SharedSubtrees}). Beside {@link #writeEachTime}, in the same run.
   */
  @Benchmark
  public byte[] write() throws IOException {
    return splicing.writeValueAsBytes(answer);
  }

  /** The same answer as Jackson writes it by itself: every shared subtree again under each child. */
  @Benchmark
  public byte[] writeEachTime() throws IOException {
    return JsonTrees.MAPPER.writeValueAsBytes(answer);
  }

  @Benchmark
  public Blocks cached() {
    return caching.call(benchCase.controller(), benchCase.hook(), benchCase.body()).body();
  }

  /** The parse alone, as the server parses for this controller: pipeline minus hook is the answer's part. */
  @Benchmark
  public JsonNode parse() throws IOException {
    return JsonTrees.parse(benchCase.body(), projection);
  }

  @Benchmark
  public int tokenize() throws IOException {
    int tokens = 0;
    try (JsonParser parser = JsonTrees.MAPPER.createParser(benchCase.body())) {
      while (parser.nextToken() != null) {
        tokens++;
      }
    }
    return tokens;
  }

  @Benchmark
  public byte[] baseline() throws IOException {
    JsonNode tree = plainJackson.readTree(benchCase.body());
    return tree == null ? null : plainJackson.writeValueAsBytes(responseTree);
  }
}
