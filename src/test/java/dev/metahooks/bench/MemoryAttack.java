package dev.metahooks.bench;

import dev.metahooks.testsupport.ChildServer;
import dev.metahooks.testsupport.HostileMatrix;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Before/after figures for the memory attacks: a server in its own JVM with the deployed flags
 * ({@code -Xmx384m}, SerialGC, ExitOnOutOfMemoryError) takes each attack of {@link HostileMatrix}, then four 39 MB
 * CatSets at once; printed are every status and time, the time to the first 429/503, the peak RSS, and whether the
 * process still serves. {@code MemoryAttack [classpath]}: another build's jar for the "before" figure.
 */
public final class MemoryAttack {
  private MemoryAttack() {}

  public static void main(String[] args) throws Exception {
    Path dir = Files.createTempDirectory("memory-attack");
    String classPath = args.length > 0 ? args[0] : System.getProperty("java.class.path");
    boolean burstOnly = args.length > 1 && args[1].equals("burst");
    for (int attack = 0;
        !burstOnly && attack < HostileMatrix.SINGLES;
        attack++) { // each on a fresh server
      try (ChildServer server = ChildServer.start(classPath, dir)) {
        print(HostileMatrix.single(server, attack));
        pause(); // let a dying process finish dying
        System.out.printf(
            "    alive=%s healthz=%d peakRss=%.0f MB%s%n",
            server.alive(),
            server.alive() ? server.status("/healthz") : -1,
            server.peakRss() / 1e6,
            server.alive() ? "" : " " + lastLine(server.log()));
      }
    }
    try (ChildServer server = ChildServer.start(classPath, dir)) {
      HostileMatrix.Burst burst = HostileMatrix.largeCatSets(server);
      burst.results().forEach(MemoryAttack::print);
      System.out.printf(
          "4 x 39 MB at once: first 429/503 after %s; alive=%s healthz=%d peakRss=%.0f MB%n",
          burst.firstRefusal() == null ? "none" : burst.firstRefusal().toMillis() + " ms",
          server.alive(),
          server.alive() ? server.status("/healthz") : -1,
          server.peakRss() / 1e6);
      if (!server.alive()) {
        System.out.println(tail(server.log()));
      }
    }
  }

  private static void print(HostileMatrix.Result result) {
    System.out.printf(
        "%-55s %4d %7d ms  %s%n",
        result.attack(),
        result.status(),
        result.elapsed().toMillis(),
        result.body().replace('\n', ' ').substring(0, Math.min(160, result.body().length())));
  }

  private static void pause() throws InterruptedException {
    Thread.sleep(500);
  }

  private static String lastLine(String log) {
    String[] lines = log.strip().split("\n");
    return lines[lines.length - 1];
  }

  private static String tail(String log) {
    return log.substring(Math.max(0, log.length() - 1500));
  }
}
