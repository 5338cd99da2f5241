package dev.metahooks.server.internal;

import dev.metahooks.server.config.ServerConfig;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import java.util.function.Consumer;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Javalin and Jetty as the server needs them: the hook port (HTTPS when configured) and the optional management
 * port with threads of its own, bounded threads, timeouts, JSON for Jetty's own errors, and no stop on SIGTERM.
 */
public final class HttpStack {
  public static final String MANAGEMENT = "management";

  /** Jetty's in-memory connector for the warm-up's calls: no socket, so no client outside the process reaches it. */
  public static final String WARM_UP = "warm-up";

  /** Connections that may wait on a slow client at once without taking a thread from anyone else. */
  static final int SLOW_CLIENTS = 96;

  /**
   * Connections the kernel keeps for the acceptor while it is busy: with the JDK's default of 50, a burst of a few
   * hundred connections overflowed the queue and clients saw resets or stalled handshakes instead of a 429. Linux
   * caps it at {@code net.core.somaxconn} (4096 since 5.4).
   */
  static final int ACCEPT_QUEUE = 2048;

  static {
    // Jetty sizes its queues' padding by asking the platform MBean server whether references are
    // compressed;
    // starting that server costs a tenth of the start-up. They are (heaps below 32 GB): 16 per
    // 64-byte line.
    if (System.getProperty("org.eclipse.jetty.util.referencesPerCacheLine") == null) {
      System.setProperty("org.eclipse.jetty.util.referencesPerCacheLine", "16");
    }
  }

  private HttpStack() {}

  /**
   * A Javalin app on these settings; {@code routes} adds the routes. {@code tls} is null for plain HTTP. With
   * {@code warmUp}, also the in-memory connector {@link #WARM_UP} (plain HTTP, the hook port's settings).
   */
  public static Javalin create(
      ServerConfig config,
      SslContextFactory.Server tls,
      boolean warmUp,
      Consumer<JavalinConfig> routes) {
    return Javalin.create(
        javalin -> {
          javalin.startup.showJavalinBanner = false;
          javalin.startup.showOldJavalinVersionWarning = false;
          javalin.http.maxRequestSize = config.maxBodyBytes();
          javalin.jetty.threadPool = httpThreads(config);
          javalin.jetty.modifyHttpConfiguration(
              http -> {
                http.setSendServerVersion(false);
                // Blocking reads and writes of one request give up after this: a client that never
                // reads its answer
                // frees its thread and slot (the connection's own idle timeout is for the time
                // between requests).
                http.setIdleTimeout(config.writeTimeout().toMillis());
              });
          javalin.jetty.modifyServer(
              server -> {
                // Jetty would stop itself on SIGTERM, cutting calls in flight; shutdownGracefully
                // decides instead.
                server.setStopAtShutdown(false);
                server.setErrorHandler(new JsonErrorHandler());
              });
          javalin.jetty.modifyServletContextHandler(
              context -> context.setErrorHandler(new JsonErrorHandler()));
          javalin.jetty.addConnector(
              (server, http) -> {
                ServerConnector connector =
                    tls == null
                        ? new ServerConnector(server, new HttpConnectionFactory(http))
                        : new ServerConnector(
                            server,
                            new SslConnectionFactory(tls, "http/1.1"),
                            new HttpConnectionFactory(http));
                connector.setPort(config.port());
                connector.setAcceptQueueSize(ACCEPT_QUEUE);
                connector.setIdleTimeout(config.idleTimeout().toMillis());
                return connector;
              });
          if (warmUp) {
            javalin.jetty.addConnector(
                (server, http) -> {
                  LocalConnector local =
                      new LocalConnector(server, new HttpConnectionFactory(http));
                  local.setName(WARM_UP);
                  return local;
                });
          }
          if (config.managementPort() > 0) {
            javalin.jetty.addConnector(
                (server, http) -> {
                  // Threads of its own: probes and scrapes are answered however busy the hook
                  // port's threads are.
                  QueuedThreadPool probeThreads = new QueuedThreadPool(8, 2, 60_000);
                  probeThreads.setName("management");
                  ServerConnector management =
                      new ServerConnector(
                          server, probeThreads, null, null, 1, 1, new HttpConnectionFactory(http));
                  management.setPort(config.managementPort());
                  management.setName(MANAGEMENT);
                  return management;
                });
          }
          routes.accept(javalin);
        });
  }

  /**
   * Jetty's threads wait: for a body to arrive (a reader thread reads it, so that this one can answer at the
   * deadline), for a hook slot and the hook's answer, and while the answer is written; the CPU-bound work runs on
   * the {@code maxConcurrentHooks} hook threads, and a waiting thread costs a stack, not a core. So: two threads per
   * hook slot and a few for the connectors and probes, as before, and {@link #SLOW_CLIENTS} more, so that that many
   * connections that trickle their bodies or do not read their answers (each cut within a second or two by the
   * minimum body rate, or at the write deadline) leave threads for Metacontroller. Beyond that, connections wait in
   * Jetty's queue.
   */
  static QueuedThreadPool httpThreads(ServerConfig config) {
    int max = 2 * config.maxConcurrentHooks() + 16 + SLOW_CLIENTS;
    QueuedThreadPool pool = new QueuedThreadPool(max, Math.min(4, max), 60_000);
    pool.setName("http");
    return pool;
  }
}
