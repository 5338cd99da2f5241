package dev.metahooks.bench;

import com.fasterxml.jackson.core.JsonParser;
import dev.metahooks.json.JsonTrees;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The floor of a request's parse: Jackson's tokenizer alone over its bytes, every token visited and nothing built.
 * Prints the median milliseconds of {@code rounds} (after as many warm-up rounds), and the CPU milliseconds of one.
 * {@code java ... dev.metahooks.bench.TokenizeFloor <request.json> <rounds>}
 */
public final class TokenizeFloor {
  private TokenizeFloor() {}

  public static void main(String[] args) throws Exception {
    byte[] body = Files.readAllBytes(Path.of(args[0]));
    int rounds = Integer.parseInt(args[1]);
    long tokens = 0;
    for (int i = 0; i < rounds; i++) {
      tokens += tokenize(body);
    }
    var threads = java.lang.management.ManagementFactory.getThreadMXBean();
    long[] wall = new long[rounds];
    long cpu = threads.getCurrentThreadCpuTime();
    for (int i = 0; i < rounds; i++) {
      long started = System.nanoTime();
      tokens += tokenize(body);
      wall[i] = System.nanoTime() - started;
    }
    cpu = threads.getCurrentThreadCpuTime() - cpu;
    Arrays.sort(wall);
    System.out.printf("%.1f %.1f %d%n", wall[rounds / 2] / 1e6, cpu / 1e6 / rounds, tokens);
  }

  /** Jackson's tokenizer alone over {@code body}: every token visited, nothing built. */
  static long tokenize(byte[] body) throws java.io.IOException {
    long tokens = 0;
    try (JsonParser parser = JsonTrees.MAPPER.createParser(body)) {
      while (parser.nextToken() != null) {
        tokens++;
      }
    }
    return tokens;
  }
}
