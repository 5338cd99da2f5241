package dev.metahooks.cli;

import dev.metahooks.api.Hook;
import dev.metahooks.controllers.Catalog;
import dev.metahooks.server.HookServer;
import dev.metahooks.server.config.ServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code metahooks train <dir>}: starts the server on a free port, sends it every {@code *.request.json} below
 * {@code dir} (laid out as {@code <controller>/<hook>/<name>.request.json}, like the golden fixtures), scrapes
 * its probes and metrics, and stops. Run once with {@code -XX:ArchiveClassesAtExit} it leaves a class-data
 * archive of everything a real sync loads, so that the server started with {@code -XX:SharedArchiveFile}
 * answers its first sync sooner (the image does this at build time).
 */
public final class Training {
  private Training() {}

  public static int run(String[] args, PrintStream err) {
    if (args.length != 2) {
      err.println("usage: metahooks train <directory of <controller>/<hook>/*.request.json>");
      return 2;
    }
    List<Path> requests;
    Path root = Path.of(args[1]);
    try (Stream<Path> files = Files.walk(root)) {
      requests =
          files.filter(f -> f.getFileName().toString().endsWith(".request.json")).sorted().toList();
    } catch (IOException e) {
      err.println("metahooks: cannot read " + root + ": " + e.getMessage());
      return 2;
    }
    int answered = 0;
    try (HookServer server =
        new HookServer(
                ServerConfig.defaults()
                    .withPort(0)
                    .withShutdown(java.time.Duration.ZERO, java.time.Duration.ZERO),
                Catalog.controllers())
            .start()) {
      String base = "http://localhost:" + server.port();
      for (Path request : requests) {
        Path relative = root.relativize(request);
        if (relative.getNameCount() < 3
            || Hook.fromPath(relative.getName(1).toString()).isEmpty()) {
          continue;
        }
        int status =
            post(
                base + "/" + relative.getName(0) + "/" + relative.getName(1),
                Files.readAllBytes(request));
        answered += status == 200 ? 1 : 0;
      }
      for (String probe : List.of("/healthz", "/readyz", "/metrics")) {
        get(base + probe);
      }
    } catch (IOException e) {
      err.println("metahooks: training failed: " + e.getMessage());
      return 1;
    }
    err.println(
        "metahooks: trained on "
            + requests.size()
            + " requests, "
            + answered
            + " answered with 200");
    return answered > 0 ? 0 : 1;
  }

  private static int post(String url, byte[] body) throws IOException {
    HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
    connection.setRequestMethod("POST");
    connection.setRequestProperty("Content-Type", "application/json");
    connection.setDoOutput(true);
    connection.setFixedLengthStreamingMode(body.length);
    try (OutputStream out = connection.getOutputStream()) {
      out.write(body);
    }
    return drain(connection);
  }

  private static void get(String url) throws IOException {
    drain((HttpURLConnection) URI.create(url).toURL().openConnection());
  }

  /** Reads the whole answer, so that the connection is reused, and returns its status. */
  private static int drain(HttpURLConnection connection) throws IOException {
    int status = connection.getResponseCode();
    try (InputStream in =
        status < 400 ? connection.getInputStream() : connection.getErrorStream()) {
      if (in != null) {
        in.transferTo(OutputStream.nullOutputStream());
      }
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    return status;
  }
}
