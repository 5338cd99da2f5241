package dev.metahooks.bench;

import dev.metahooks.json.JsonTrees;
import dev.metahooks.json.Projection;
import java.util.Arrays;

/**
 * A request's parse beside its floor, Jackson's tokenizer alone over the same bytes, alternating call by call so that
 * load from elsewhere falls on both. Prints the medians and their ratio.
 * {@code java -cp ... dev.metahooks.bench.ReadComparison catset:10000 21}
 */
public final class ReadComparison {
  private ReadComparison() {}

  public static void main(String[] args) throws Exception {
    BenchCase request = BenchCase.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    byte[] body = request.body();
    Projection projection = request.projection();
    long[] parse = new long[rounds];
    long[] tokenize = new long[rounds];
    // Warm-up, both sides, for 15 s: on a loaded machine the JIT's own threads wait for a core too.
    for (long end = System.nanoTime() + 15_000_000_000L; System.nanoTime() < end; ) {
      JsonTrees.parse(body, projection);
      TokenizeFloor.tokenize(body);
    }
    for (int i = 0; i < rounds; i++) {
      boolean parseFirst = i % 2 == 0; // which side goes first alternates too
      for (int side = 0; side < 2; side++) {
        boolean parsing = parseFirst == (side == 0);
        long start = System.nanoTime();
        if (parsing) {
          JsonTrees.parse(body, projection);
        } else {
          TokenizeFloor.tokenize(body);
        }
        (parsing ? parse : tokenize)[i] = System.nanoTime() - start;
      }
    }
    Arrays.sort(parse);
    Arrays.sort(tokenize);
    System.out.printf(
        "%s (%.1f MB): parse %.1f ms, tokenize %.1f ms (medians of %d), ratio %.2f%n",
        args[0],
        body.length / 1e6,
        parse[rounds / 2] / 1e6,
        tokenize[rounds / 2] / 1e6,
        rounds,
        (double) parse[rounds / 2] / tokenize[rounds / 2]);
  }
}
