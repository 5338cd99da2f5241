package dev.metahooks.testsupport;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Real hook requests to start generated ones from: the golden fixtures ({@code fixtures/<controller>/<hook>/})
 * and the recorded upstream requests ({@code upstream-answers/<controller>/<hook>/}). Read once; callers get
 * a fresh copy of each tree, so they may change it.
 */
public final class SeedRequests {
  /** One request file; {@code controller} is the URL name, {@code hook} the URL hook it was written for. */
  public record Seed(String controller, String hook, String name, ObjectNode tree) {
    public ObjectNode request() {
      return tree.deepCopy();
    }

    /** Seeds are told apart by where they come from; hashing the whole tree would slow generation down. */
    @Override
    public boolean equals(Object other) {
      return other instanceof Seed seed && seed.toString().equals(toString());
    }

    @Override
    public int hashCode() {
      return toString().hashCode();
    }

    @Override
    public String toString() {
      return controller + "/" + hook + "/" + name;
    }
  }

  private static final List<Seed> FIXTURES = read(Resources.path("fixtures"), "fixtures");
  private static final List<Seed> UPSTREAM = read(Resources.path("upstream-answers"), "upstream");

  private SeedRequests() {}

  public static List<Seed> fixtures() {
    return FIXTURES;
  }

  public static List<Seed> upstreamAnswers() {
    return UPSTREAM;
  }

  /** The fixtures of each controller, by URL name. */
  public static Map<String, List<Seed>> fixturesByController() {
    return byController(FIXTURES, seed -> true);
  }

  public static Map<String, List<Seed>> byController(List<Seed> seeds, Predicate<Seed> filter) {
    Map<String, List<Seed>> byController = new TreeMap<>();
    for (Seed seed : seeds) {
      if (filter.test(seed)) {
        byController.computeIfAbsent(seed.controller(), c -> new java.util.ArrayList<>()).add(seed);
      }
    }
    byController.replaceAll((controller, list) -> List.copyOf(list));
    return byController;
  }

  private static List<Seed> read(Path root, String origin) {
    return Resources.find(root, ".request.json").stream()
        .map(
            file -> {
              Path relative = root.relativize(file);
              String name =
                  origin + ":" + file.getFileName().toString().replace(".request.json", "");
              return new Seed(
                  relative.getName(0).toString(),
                  relative.getName(1).toString(),
                  name,
                  Resources.readObject(file));
            })
        .toList();
  }
}
