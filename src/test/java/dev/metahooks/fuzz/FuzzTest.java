package dev.metahooks.fuzz;

import dev.metahooks.api.Controller;
import dev.metahooks.api.Hook;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.internal.FrontDoor;
import dev.metahooks.server.internal.Reply;
import dev.metahooks.testing.FixedSources;
import dev.metahooks.testsupport.Resources;
import dev.metahooks.testsupport.SeedRequests;
import dev.metahooks.testsupport.SeedRequests.Seed;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.GenerationMode;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.Lifespan;
import net.jqwik.api.lifecycle.Store;
import net.jqwik.api.statistics.Statistics;

/**
 * A mutation fuzzer (no coverage feedback) over the request parser and every controller: each golden fixture
 * and recorded upstream request, mutated structurally ({@link Mutation}) and sent through the
 * {@link FrontDoor} in-process, must get a 200 or a 4xx, never a 5xx or an exception, with a JSON error
 * body or a well-formed answer ({@link AnswerChecks}).
 *
 * <p>The normal test suite runs a short budget; a long run: {@code mvn -B test -Dtest=FuzzTest -Dfuzz.minutes=10}
 * (or {@code -Dfuzz.tries=200000}). A failing body is written to {@code target/fuzz-failures/}; once fixed, it
 * belongs in {@code src/test/resources/regressions/<controller>/} (see {@link RegressionsTest}).
 */
class FuzzTest {
  private static final FrontDoor FRONT_DOOR =
      FrontDoor.of(Catalog.controllers(FixedSources.INSTANCE));
  private static final Path FAILURES = Resources.projectDir().resolve("target/fuzz-failures");
  private static final List<Seed> ALL_SEEDS = allSeeds();
  private static final Map<String, List<Seed>> SEEDS =
      SeedRequests.byController(ALL_SEEDS, seed -> true);
  private static final Map<String, List<String>> HOOKS = servedHooks();

  /**
   * Inputs for every controller alike. Built by combining plain values (no flatMap, whose per-try arbitraries
   * jqwik keeps for the whole property), so that a run of millions of tries stays in constant memory.
   */
  @Provide
  Arbitrary<FuzzInput> inputs() {
    // Byte-level damage ends in the parser; most tries should reach the controllers.
    List<Tuple.Tuple2<Integer, Mutation.Kind>> kinds =
        Arrays.stream(Mutation.Kind.values())
            .map(kind -> Tuple.of(kind.onBytes() ? 1 : 5, kind))
            .toList();
    Arbitrary<Mutation> mutation =
        Combinators.combine(Arbitraries.frequency(kinds), Arbitraries.longs()).as(Mutation::new);
    return Combinators.combine(
            Arbitraries.of(List.copyOf(HOOKS.keySet())),
            Arbitraries.integers().between(0, 9),
            Arbitraries.integers().greaterOrEqual(0),
            Arbitraries.integers().greaterOrEqual(0),
            mutation.list().ofMinSize(1).ofMaxSize(5))
        .as(FuzzTest::input);
  }

  /**
   * Mostly one of the controller's own requests on the hook it was written for; one time in ten anyone's
   * request, and then on any hook the controller serves.
   */
  private static FuzzInput input(
      String controller, int choice, int seedIndex, int hookIndex, List<Mutation> mutations) {
    boolean own = choice > 0 && SEEDS.containsKey(controller);
    List<Seed> seeds = own ? SEEDS.get(controller) : ALL_SEEDS;
    Seed seed = seeds.get(seedIndex % seeds.size());
    List<String> hooks = HOOKS.get(controller);
    String hook =
        own && hooks.contains(seed.hook()) ? seed.hook() : hooks.get(hookIndex % hooks.size());
    return new FuzzInput(seed, controller, hook, mutations);
  }

  @Property(
      tries = Integer.MAX_VALUE,
      generation = GenerationMode.RANDOMIZED,
      edgeCases = EdgeCasesMode.NONE)
  @AddLifecycleHook(FuzzBudget.class)
  void everyBodyGetsA200OrA4xxWithAWellFormedAnswer(@ForAll("inputs") FuzzInput input)
      throws IOException {
    byte[] body = input.body();
    Reply answer;
    List<String> problems;
    try {
      answer = FRONT_DOOR.call(input.controller(), input.hook(), body);
      problems = AnswerChecks.problems(answer);
    } catch (Throwable e) {
      throw new AssertionError(
          "an exception escaped for " + input + "; body in " + save(input, body), e);
    }
    Statistics.label("controller").collect(input.controller());
    Statistics.label("status").collect(answer.status());
    // Declared once: jqwik keeps every coverage declaration until the property ends.
    Store.getOrCreate(
            "coverage",
            Lifespan.PROPERTY,
            () -> {
              Statistics.label("controller")
                  .coverage(
                      coverage ->
                          HOOKS
                              .keySet()
                              .forEach(
                                  controller -> coverage.check(controller).percentage(p -> p > 2)));
              return true;
            })
        .get();
    if (!problems.isEmpty()) {
      throw new AssertionError(input + ": " + problems + "; body in " + save(input, body));
    }
  }

  private static Path save(FuzzInput input, byte[] body) throws IOException {
    Files.createDirectories(FAILURES);
    Path file =
        FAILURES.resolve(
            input.controller() + "-" + input.hook() + "-" + digest(body) + ".request.json");
    Files.write(file, body);
    return file;
  }

  private static String digest(byte[] body) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(body))
          .substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Seed> allSeeds() {
    List<Seed> seeds = new ArrayList<>(SeedRequests.fixtures());
    seeds.addAll(SeedRequests.upstreamAnswers());
    return List.copyOf(seeds);
  }

  private static Map<String, List<String>> servedHooks() {
    Map<String, List<String>> hooks = new TreeMap<>();
    for (Controller controller : FRONT_DOOR.controllers()) {
      hooks.put(controller.name(), controller.hooks().stream().map(Hook::path).sorted().toList());
    }
    return hooks;
  }
}
