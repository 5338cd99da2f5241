package dev.metahooks.properties;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.api.Controller;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.testsupport.SeedRequests;
import dev.metahooks.testsupport.SeedRequests.Seed;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** A golden fixture with valid edits applied in order; its text names both, so a failure can be replayed. */
record GeneratedRequest(Seed seed, List<ValidEdit> edits) {
  private static final Map<String, List<Seed>> FIXTURES = SeedRequests.fixturesByController();

  String controller() {
    return seed.controller();
  }

  String hook() {
    return seed.hook();
  }

  ObjectNode request() {
    ObjectNode request = seed.request();
    for (ValidEdit edit : edits) {
      edit.apply(request, seed.controller(), seed.hook());
    }
    return request;
  }

  @Override
  public String toString() {
    return seed + " " + edits;
  }

  /**
   * Requests of every controller of the catalog, each as likely as any other; a controller without fixtures fails
   * here rather than being left out.
   */
  static Arbitrary<GeneratedRequest> ofEveryController() {
    return of(catalog());
  }

  /** The names of the catalog's controllers: what property tests draw from, so a new controller is never skipped. */
  static List<String> catalog() {
    return Catalog.controllers().stream().map(Controller::name).toList();
  }

  /** The catalog's controllers whose fixtures satisfy {@code test} for at least one request. */
  static List<String> catalogWhere(java.util.function.Predicate<ObjectNode> test) {
    return catalog().stream()
        .filter(
            name ->
                FIXTURES.getOrDefault(name, List.of()).stream()
                    .anyMatch(seed -> test.test(seed.request())))
        .toList();
  }

  /** Requests of one controller, from its fixtures of every hook. */
  static Arbitrary<GeneratedRequest> of(String controller) {
    return of(List.of(controller));
  }

  /** Requests of these controllers, each as likely as any other, each from its fixtures of every hook. */
  static Arbitrary<GeneratedRequest> of(List<String> controllers) {
    for (String controller : controllers) {
      if (!FIXTURES.containsKey(controller)) {
        throw new IllegalArgumentException("no fixtures for " + controller);
      }
    }
    Arbitrary<ValidEdit> edit =
        Combinators.combine(Arbitraries.of(ValidEdit.Kind.class), Arbitraries.longs())
            .as(ValidEdit::new);
    // An index into the controller's fixtures rather than flatMap: shrinks toward the first
    // fixture.
    return Combinators.combine(
            Arbitraries.of(controllers),
            Arbitraries.integers().greaterOrEqual(0),
            edit.list().ofMaxSize(5))
        .as(
            (controller, index, edits) -> {
              List<Seed> seeds = FIXTURES.get(controller);
              return new GeneratedRequest(seeds.get(index % seeds.size()), edits);
            });
  }
}
