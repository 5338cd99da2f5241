package dev.metahooks.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.metahooks.json.JsonTrees;
import dev.metahooks.testsupport.SeedRequests.Seed;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * A fuzzed call: a seed request, mutated, sent to a controller's hook (mostly the seed's own, sometimes
 * another hook or controller). Its text names all of it, so a failure can be replayed.
 */
record FuzzInput(Seed seed, String controller, String hook, List<Mutation> mutations) {
  byte[] body() {
    ObjectNode request = seed.request();
    for (Mutation mutation : mutations) {
      if (!mutation.kind().onBytes()) {
        mutation.apply(request, seed.hook());
      }
    }
    byte[] body;
    try {
      body = JsonTrees.MAPPER.writeValueAsBytes(request);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
    for (Mutation mutation : mutations) {
      if (mutation.kind().onBytes()) {
        body = mutation.apply(body);
      }
    }
    return body;
  }

  @Override
  public String toString() {
    return seed + " -> /" + controller + "/" + hook + " " + mutations;
  }
}
