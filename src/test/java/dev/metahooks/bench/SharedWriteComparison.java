package dev.metahooks.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.json.SharedSubtrees;
import dev.metahooks.server.internal.FrontDoor;
import java.util.Arrays;

/**
 * One hook answer written both ways, alternating call by call so that load from elsewhere falls on both: with each
 * shared subtree written once ({@link SharedSubtrees}, as the server writes) and as Jackson writes it by itself.
 * Prints the medians and their ratio. {@code java -cp ... dev.metahooks.bench.SharedWriteComparison catset:10000 40}
 */
public final class SharedWriteComparison {
  private SharedWriteComparison() {}

  public static void main(String[] args) throws Exception {
    BenchCase request = BenchCase.of(args[0]);
    int rounds = Integer.parseInt(args[1]);
    Object answer =
        FrontDoor.of(Catalog.controllers())
            .response(request.controller(), request.hook(), request.body());
    ObjectMapper shared = SharedSubtrees.writing(JsonTrees.MAPPER);
    long[] once = new long[rounds];
    long[] each = new long[rounds];
    // Warm-up, both sides, for 15 s: on a loaded machine the JIT's own threads wait for a core too.
    for (long end = System.nanoTime() + 15_000_000_000L; System.nanoTime() < end; ) {
      shared.writeValueAsBytes(answer);
      JsonTrees.MAPPER.writeValueAsBytes(answer);
    }
    for (int i = 0; i < rounds; i++) {
      boolean sharedFirst = i % 2 == 0; // which side goes first alternates too
      for (int side = 0; side < 2; side++) {
        boolean sharing = sharedFirst == (side == 0);
        long start = System.nanoTime();
        (sharing ? shared : JsonTrees.MAPPER).writeValueAsBytes(answer);
        (sharing ? once : each)[i] = System.nanoTime() - start;
      }
    }
    Arrays.sort(once);
    Arrays.sort(each);
    System.out.printf(
        "%s: shared subtrees once %.2f ms, each time %.2f ms (medians of %d), ratio %.2f%n",
        args[0],
        once[rounds / 2] / 1e6,
        each[rounds / 2] / 1e6,
        rounds,
        (double) once[rounds / 2] / each[rounds / 2]);
  }
}
